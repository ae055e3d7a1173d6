// ODS names from the DDL: property names by JSON name (matched case-insensitively), and the ODS child entity behind a
// JSON collection or inline object, with its name verified against the (possibly shortened) PostgreSQL table name.
import { createHash } from 'node:crypto';
import type { OdsDdl } from './ods-ddl.js';

/** An ODS entity and the DDL table that stores it. */
export interface OdsEntity {
  /** Qualified PostgreSQL table name, e.g. `edfi.InterventionURI`. */
  table: string;
  /** Full entity name, e.g. `InterventionURI`. */
  name: string;
}

/** A JSON member resolved to its ODS child entity. */
export interface OdsChild {
  entity: OdsEntity;
  /** The parent's member name: the plural entity name for a collection, the entity name for an inline object. */
  memberName: string;
}

export interface OdsNames {
  /** The ODS property name of a scalar JSON member (`iepBeginDate` → `IEPBeginDate`; descriptors drop `Id`). */
  propertyName(jsonName: string): string | undefined;
  /** The table of a resource's root entity, when the DDL has one. */
  rootEntity(schema: string, name: string): OdsEntity | undefined;
  /** The child entity of one of `parents` behind a JSON collection (`isCollection`) or inline object. */
  childEntity(parents: readonly OdsEntity[], jsonName: string, isCollection: boolean): OdsChild;
}

const POSTGRES_MAX_IDENTIFIER = 63;
const SHORTENED_PREFIX = 56;

/** The ODS shortens identifiers longer than PostgreSQL allows to a prefix plus a hash of the full name. */
export function postgresName(name: string): string {
  if (name.length <= POSTGRES_MAX_IDENTIFIER) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 6);
  return `${name.slice(0, SHORTENED_PREFIX)}_${hash}`;
}

function propertyNames(ddl: OdsDdl): Map<string, string> {
  const spellings = new Map<string, Set<string>>();
  const add = (name: string) => {
    const key = name.toLowerCase();
    spellings.set(key, (spellings.get(key) ?? new Set()).add(name));
  };
  for (const columns of ddl.columns.values()) {
    for (const column of columns) {
      add(column);
      if (column.endsWith('DescriptorId')) add(column.slice(0, -2));
    }
  }
  const conflicts = [...spellings.values()].filter((names) => names.size > 1).map((names) => [...names].join('/'));
  if (conflicts.length > 0) throw new Error(`ODS column names differing only in case: ${conflicts.join(', ')}`);
  return new Map([...spellings].map(([key, names]) => [key, [...names][0]!]));
}

/** Singular spellings a JSON collection name may come from (`diagnoses` → `diagnosis`, `matrices` → `matrix`,
 * `artMedia` → `artMedium`). */
function singularForms(plural: string): string[] {
  const forms = [plural];
  if (plural.endsWith('s')) forms.push(plural.slice(0, -1));
  if (plural.endsWith('es')) forms.push(plural.slice(0, -2), `${plural.slice(0, -2)}is`);
  if (plural.endsWith('ies')) forms.push(`${plural.slice(0, -3)}y`);
  if (plural.endsWith('ices')) forms.push(`${plural.slice(0, -4)}ix`);
  if (plural.endsWith('a')) forms.push(`${plural.slice(0, -1)}um`);
  return forms;
}

/** The ODS camel-cases a name by lowering its leading capitals, so any leading run of the JSON name may be an acronym. */
function leadingCasings(jsonName: string): number[] {
  const lowerRun = /^[a-z]*/.exec(jsonName)![0].length;
  return Array.from({ length: Math.max(lowerRun, 1) }, (_, index) => index + 1);
}

function upperFirst(text: string, count: number): string {
  return text.slice(0, count).toUpperCase() + text.slice(count);
}

interface Candidate {
  name: string;
  memberName: string;
}

/** Starts of the words of a PascalCase name (`SpecialEducationProgramService` → 0, 7, 16, 23). */
function wordStarts(name: string): number[] {
  return [...name.matchAll(/[A-Z][a-z0-9]*/g)].map((word) => word.index);
}

/**
 * What may precede the member's own name in the entity name: a prefix of the parent name (all of it, none of it, or
 * the part the JSON name does not repeat), or the whole parent name followed by its last words again (the JSON
 * name drops words the parent already ends with: `…ProgramService` + `ServiceProvider` → `providers`).
 */
function entityPrefixes(parentName: string): string[] {
  const prefixes = Array.from({ length: parentName.length + 1 }, (_, kept) => parentName.slice(0, kept));
  for (const start of wordStarts(parentName)) prefixes.push(parentName + parentName.slice(start));
  return prefixes;
}

/** Entity names the JSON member may stand for, with each possible acronym casing of the member's start. */
function candidates(parentName: string, jsonName: string, isCollection: boolean): Candidate[] {
  const found: Candidate[] = [];
  const singulars = isCollection ? singularForms(jsonName) : [jsonName];
  for (const casing of leadingCasings(jsonName)) {
    const member = upperFirst(jsonName, casing);
    for (const singular of singulars) {
      if (casing > singular.length) continue;
      const entity = upperFirst(singular, casing);
      for (const prefix of entityPrefixes(parentName)) {
        found.push({ name: prefix + entity, memberName: isCollection ? prefix + member : prefix + entity });
      }
    }
  }
  return found;
}

function childEntity(ddl: OdsDdl, parents: readonly OdsEntity[], jsonName: string, isCollection: boolean): OdsChild {
  const matches = new Map<string, OdsChild>();
  for (const parent of parents) {
    const tables = new Map(
      (ddl.children.get(parent.table) ?? []).map((table) => [table.slice(table.indexOf('.') + 1), table]),
    );
    for (const candidate of candidates(parent.name, jsonName, isCollection)) {
      const table = tables.get(postgresName(candidate.name));
      if (table) {
        matches.set(`${table} ${candidate.memberName}`, {
          entity: { table, name: candidate.name },
          memberName: candidate.memberName,
        });
      }
    }
  }
  const found = [...matches.values()];
  if (found.length !== 1) {
    const where = parents.map((parent) => parent.name).join('/');
    throw new Error(`${found.length} ODS entities for ${where}.${jsonName}: ${[...matches.keys()].join(', ')}`);
  }
  return found[0]!;
}

export function createOdsNames(ddl: OdsDdl): OdsNames {
  const properties = propertyNames(ddl);
  return {
    propertyName: (jsonName) => properties.get(jsonName.toLowerCase()),
    rootEntity: (schema, name) => {
      const table = `${schema}.${postgresName(name)}`;
      return ddl.columns.has(table) ? { table, name } : undefined;
    },
    childEntity: (parents, jsonName, isCollection) => childEntity(ddl, parents, jsonName, isCollection),
  };
}
