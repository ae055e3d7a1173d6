// Securable elements: the subjects the ODS authorizes a resource on (its generated authorization-context provider,
// or the ODS's override of it), located in the document through the query fields, plus the identity namespaces.
import type { JsonPath, SecurableElements } from '../types.js';
import { compareText } from './ordering.js';

/** The ODS's person surrogate keys; the API shows (and the ODS's messages name) the unique ids instead. */
const PEOPLE = {
  StudentUSI: { field: 'studentuniqueid', list: 'students' },
  StaffUSI: { field: 'staffuniqueid', list: 'staffs' },
  ContactUSI: { field: 'contactuniqueid', list: 'contacts' },
} as const;

function isPerson(property: string): property is keyof typeof PEOPLE {
  return Object.hasOwn(PEOPLE, property);
}

function leafOf(path: JsonPath): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/**
 * `subjects` are ODS property names (`SchoolId`, `ResponsibilitySchoolId`, `StudentUSI`); the query field of the same
 * name (case-insensitively) gives the path, an identity path first where unified keys give several.
 */
export function securableElementsOf(
  where: string,
  subjects: readonly string[],
  identityPaths: JsonPath[],
  queryFields: Record<string, JsonPath[]>,
): SecurableElements {
  const identity = new Set(identityPaths);
  const fields = new Map(Object.entries(queryFields).map(([name, paths]) => [name.toLowerCase(), paths]));
  const pathOf = (field: string): JsonPath => {
    const paths = fields.get(field.toLowerCase());
    if (paths === undefined || paths.length === 0)
      throw new Error(`${where}: authorization subject ${field} is not a query field`);
    return paths.find((path) => identity.has(path)) ?? paths[0]!;
  };
  const elements: SecurableElements = {
    educationOrganizations: [],
    students: [],
    staffs: [],
    contacts: [],
    namespaces: [...identityPaths].filter((path) => leafOf(path) === 'namespace').sort(compareText),
  };
  for (const subject of subjects) {
    if (isPerson(subject)) elements[PEOPLE[subject].list].push(pathOf(PEOPLE[subject].field));
    else elements.educationOrganizations.push({ name: subject, path: pathOf(subject) });
  }
  return elements;
}
