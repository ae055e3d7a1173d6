// Derives the relational layout of each resource from the model: table names, typed columns (identity and securable
// elements) and the natural-key string stored for probes. Dialect-neutral, so a PostgreSQL store can share it.
import {
  compilePathGetter,
  parseJsonPath,
  type AbstractResourceModel,
  type JsonPath,
  type PropertyShape,
  type ResourceModel,
} from '../../model/index.js';
import type { DocumentWrite } from '../store.js';

export type SqlValue = string | number | null;
export type SqlType = 'INTEGER' | 'REAL' | 'TEXT';

export interface TypedColumn {
  readonly name: string;
  readonly path: JsonPath;
  readonly sqlType: SqlType;
  readonly notNull: boolean;
  /** Indexed for authorization and filtering. */
  readonly indexed: boolean;
  /** Derived from the natural key alone, so it cannot change while the stored key stays the same. */
  readonly fixedByKey: boolean;
  /** Holds a descriptor URI, stored case-folded like the natural key. */
  readonly isDescriptor: boolean;
  readonly read: (body: unknown) => SqlValue;
}

export interface TableLayout {
  readonly resource: ResourceModel;
  readonly table: string;
  /** Rows of several resources share the table (descriptors), told apart by `resource_id`. */
  readonly shared: boolean;
  readonly columns: readonly TypedColumn[];
  /** The natural key as stored in `identity_key`: one unique index seek finds the document. */
  readonly identityKeyOf: (write: Pick<DocumentWrite, 'identity' | 'body'>) => string;
}

/** Every column of a layout's table, in table order: what an insert writes. */
export function storedColumnNames({ shared, columns }: TableLayout): string[] {
  return [
    'doc_id',
    ...(shared ? ['resource_id'] : []),
    'identity_key',
    ...columns.map((column) => column.name),
    'change_version',
    'last_modified',
    'body',
  ];
}

export interface AbstractIdentityLayout {
  readonly abstract: AbstractResourceModel;
  readonly table: string;
}

/** The one table that holds every descriptor resource (they all share one shape). */
export const DESCRIPTOR_TABLE = 'descriptor';

/** Names the generated tables use for their own columns; typed columns may not take them. */
export const RESERVED_COLUMNS: ReadonlySet<string> = new Set([
  'doc_id',
  'resource_id',
  'identity_key',
  'change_version',
  'last_modified',
  'body',
]);

/** `studentCTEProgramAssociations` → `student_cte_program_associations`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** Descriptor URIs and natural keys compare case-insensitively: this is the one folding rule. */
export function foldCase(value: string): string {
  return value.toLowerCase();
}

export function resourceTableName(resource: ResourceModel): string {
  if (resource.isDescriptor) return DESCRIPTOR_TABLE;
  return `r_${resource.namespace.replace(/[^a-z0-9]/gi, '')}_${snakeCase(resource.endpoint)}`;
}

export function abstractIdentityLayout(abstract: AbstractResourceModel): AbstractIdentityLayout {
  return { abstract, table: `${snakeCase(abstract.resourceName)}_identity` };
}

/** The model shape of the property at `path` (a simple member path). */
export function shapeAt(resource: ResourceModel, path: JsonPath): PropertyShape {
  let shape: PropertyShape | undefined = resource.shape;
  for (const segment of parseJsonPath(path)) shape = shape?.properties?.[segment.name];
  if (!shape) throw new Error(`${resource.resourceName} has no property at ${path}`);
  return shape;
}

function sqlTypeOf(shape: PropertyShape): SqlType {
  if (shape.type === 'integer' || shape.type === 'boolean') return 'INTEGER';
  if (shape.type === 'number') return 'REAL';
  return 'TEXT';
}

function compileColumnReader(path: JsonPath, isDescriptor: boolean): (body: unknown) => SqlValue {
  const get = compilePathGetter(path);
  return (body) => {
    const value = get(body);
    if (typeof value === 'string') return isDescriptor ? foldCase(value) : value;
    if (typeof value === 'number') return value;
    if (typeof value === 'boolean') return value ? 1 : 0;
    return null;
  };
}

interface ColumnSpec {
  readonly path: JsonPath;
  readonly notNull: boolean;
  readonly indexed: boolean;
  readonly fixedByKey: boolean;
}

function buildColumns(resource: ResourceModel, specs: readonly ColumnSpec[]): TypedColumn[] {
  const descriptorPaths = new Set(resource.descriptors.map((use) => use.path));
  const names = new Set<string>();
  return specs.map((spec) => {
    const name = snakeCase(spec.path.slice(2));
    if (RESERVED_COLUMNS.has(name) || names.has(name))
      throw new Error(`Column name ${name} of ${resource.resourceName} is not unique`);
    names.add(name);
    const isDescriptor = descriptorPaths.has(spec.path);
    return {
      ...spec,
      name,
      sqlType: sqlTypeOf(shapeAt(resource, spec.path)),
      isDescriptor,
      read: compileColumnReader(spec.path, isDescriptor),
    };
  });
}

/** The API id: filtered on `document`, whose uuid is indexed already. */
export const ID_PATH = '$.id';
/** A member path without array steps (`$.a.b`): what a typed column or a JSON scalar read can hold. */
export const MEMBER_PATH = /^\$(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * Resources that grow with the people of a state (what holds a student, staff or contact: enrolments, attendance,
 * grades, the people themselves) take millions of rows, where a filter without an index reads them all; the others
 * grow with the education organizations, sections and descriptors, small enough to scan.
 */
export function growsWithPeople(resource: ResourceModel): boolean {
  const { students, staffs, contacts } = resource.securableElements;
  return students.length + staffs.length + contacts.length > 0;
}

export interface LayoutOptions {
  /**
   * Query fields of the resources that grow with people become nullable typed columns, instead of values each filter
   * and query-field index extracts from the body. For PostgreSQL, whose text bodies an index on an extracted value
   * parses again on every write, once per index. Their indexes stay the query-field indexes (query-field-sql.ts).
   */
  readonly queryFieldColumns?: boolean;
}

/** The query-field paths not already among `taken`, as unindexed nullable columns. */
function queryFieldColumnSpecs(resource: ResourceModel, taken: ReadonlySet<JsonPath>): ColumnSpec[] {
  const paths = new Set(Object.values(resource.queryFields).flat());
  return [...paths]
    .filter((path) => path !== ID_PATH && MEMBER_PATH.test(path) && !taken.has(path))
    .map((path) => ({ path, notNull: false, indexed: false, fixedByKey: false }));
}

/** Every path authorization reads of the resource's documents. */
export function securablePathsOf(resource: ResourceModel): ReadonlySet<JsonPath> {
  const elements = resource.securableElements;
  return new Set([
    ...elements.educationOrganizations.map((element) => element.path),
    ...elements.students,
    ...elements.staffs,
    ...elements.contacts,
    ...elements.namespaces,
  ]);
}

/**
 * Identity columns first (in identity-path order), then securable elements that are not identity members, then (as
 * `options` ask) query fields.
 */
function resourceColumnSpecs(resource: ResourceModel, options: LayoutOptions): ColumnSpec[] {
  const securable = securablePathsOf(resource);
  const identity = new Set(resource.identityPaths);
  const specs: ColumnSpec[] = resource.identityPaths.map((path) => ({
    path,
    notNull: true,
    indexed: securable.has(path),
    fixedByKey: true,
  }));
  for (const path of securable) {
    if (!identity.has(path)) specs.push({ path, notNull: false, indexed: true, fixedByKey: false });
  }
  if (options.queryFieldColumns === true && growsWithPeople(resource))
    specs.push(...queryFieldColumnSpecs(resource, new Set(specs.map((spec) => spec.path))));
  return specs;
}

/** The descriptor key is case-folded, so even namespace and code value may change (in casing) on update. */
const descriptorColumnSpecs: readonly ColumnSpec[] = [
  { path: '$.namespace', notNull: true, indexed: false, fixedByKey: false },
  { path: '$.codeValue', notNull: true, indexed: false, fixedByKey: false },
  { path: '$.shortDescription', notNull: true, indexed: false, fixedByKey: false },
  { path: '$.description', notNull: false, indexed: false, fixedByKey: false },
  { path: '$.effectiveBeginDate', notNull: false, indexed: false, fixedByKey: false },
  { path: '$.effectiveEndDate', notNull: false, indexed: false, fixedByKey: false },
];

/** The key a descriptor is found by: its URI (`namespace#codeValue`), case-folded. */
function descriptorKey(namespace: string, codeValue: string): string {
  return foldCase(`${namespace}#${codeValue}`);
}

function descriptorIdentityKey(write: Pick<DocumentWrite, 'body'>): string {
  const { namespace, codeValue } = write.body;
  return descriptorKey(String(namespace), String(codeValue));
}

export function tableLayoutOf(resource: ResourceModel, options: LayoutOptions = {}): TableLayout {
  if (resource.isDescriptor) {
    return {
      resource,
      table: DESCRIPTOR_TABLE,
      shared: true,
      columns: buildColumns(resource, descriptorColumnSpecs),
      identityKeyOf: descriptorIdentityKey,
    };
  }
  return {
    resource,
    table: resourceTableName(resource),
    shared: false,
    columns: buildColumns(resource, resourceColumnSpecs(resource, options)),
    identityKeyOf: (write) => write.identity.key,
  };
}
