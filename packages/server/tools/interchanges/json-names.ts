// Matches XML element names (PascalCase, singular) to JSON property names (camelCase, plural for collections).
// Names compare case-insensitively because MetaEd lower-cases leading acronyms (`CTEProgram` → `cteProgram`).
import type { PropertyShape } from '../../src/model/index.js';

const IRREGULAR_SINGULARS: Record<string, string> = { people: 'person' };

/** The singular forms a plural JSON collection name may have come from (`artMedia` → `artmedium`). */
export function singularsOf(pluralName: string): string[] {
  const name = pluralName.toLowerCase();
  const forms = new Set<string>();
  const irregular = IRREGULAR_SINGULARS[name];
  if (irregular) forms.add(irregular);
  if (name.endsWith('ices')) forms.add(`${name.slice(0, -4)}ix`);
  if (name.endsWith('ies')) forms.add(`${name.slice(0, -3)}y`);
  if (name.endsWith('es')) forms.add(name.slice(0, -2)).add(`${name.slice(0, -2)}is`);
  if (name.endsWith('s')) forms.add(name.slice(0, -1));
  if (name.endsWith('a')) forms.add(`${name.slice(0, -1)}um`);
  forms.add(name);
  return [...forms];
}

/** The tails of a PascalCase name that start at a word boundary: `ObjectiveAssessment` → itself, `Assessment`. */
function wordTails(pascalName: string): string[] {
  const tails: string[] = [];
  for (let i = 0; i < pascalName.length; i++) {
    const char = pascalName[i]!;
    if (i === 0 || (char >= 'A' && char <= 'Z')) tails.push(pascalName.slice(i));
  }
  return tails;
}

/**
 * The lower-case names an XML element may go by in JSON, best first: its own name, then its name without a leading
 * part that ends an enclosing entity's name. MetaEd drops such prefixes, e.g. `EducationOrganizationIdentificationCode`
 * → `identificationCodes`, `AssessmentScore` in ObjectiveAssessment → `scores`, `ServiceProvider` in a
 * SpecialEducationProgramService → `providers`.
 */
export function nameCandidates(elementName: string, entityNames: readonly string[]): string[] {
  const name = elementName.toLowerCase();
  const candidates = new Set([name]);
  for (const entity of entityNames) {
    for (const tail of wordTails(entity)) {
      const prefix = tail.toLowerCase();
      if (name.length > prefix.length && name.startsWith(prefix)) candidates.add(name.slice(prefix.length));
    }
  }
  return [...candidates];
}

type PropertyFilter = (shape: PropertyShape) => boolean;

/** The first candidate (plus `suffix`) naming a property of `shape` that passes `accept`. */
export function findProperty(
  shape: PropertyShape,
  candidates: readonly string[],
  suffix: string,
  accept: PropertyFilter,
): string | undefined {
  const properties = Object.entries(shape.properties ?? {});
  for (const candidate of candidates) {
    const wanted = candidate + suffix.toLowerCase();
    const match = properties.find(([name, property]) => name.toLowerCase() === wanted && accept(property));
    if (match) return match[0];
  }
  return undefined;
}

/** The first array property whose singular name is a candidate. */
export function findCollection(shape: PropertyShape, candidates: readonly string[]): string | undefined {
  const arrays = Object.entries(shape.properties ?? {}).filter(([, property]) => property.type === 'array');
  for (const candidate of candidates) {
    const match = arrays.find(([name]) => singularsOf(name).includes(candidate));
    if (match) return match[0];
  }
  return undefined;
}

/**
 * A reference property for a reference element by name, or else the only reference property whose name contains the
 * element's or is contained in it: the XSD loses some role names (`CompetencyObjectiveReference` for
 * `objectiveCompetencyObjectiveReference`) and doubles others (`FundFundDimensionReference` for `fundDimensionReference`).
 */
export function findReferenceProperty(shape: PropertyShape, elementName: string): string | undefined {
  const isReference: PropertyFilter = (property) => property.kind === 'reference';
  const exact = findProperty(shape, [elementName.toLowerCase()], '', isReference);
  if (exact) return exact;
  const name = elementName.toLowerCase();
  const related = Object.entries(shape.properties ?? {}).filter(([property, propertyShape]) => {
    const candidate = property.toLowerCase();
    return isReference(propertyShape) && (candidate.endsWith(name) || name.endsWith(candidate));
  });
  return related.length === 1 ? related[0]![0] : undefined;
}
