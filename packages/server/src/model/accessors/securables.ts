// Compiles a resource's securable-element reader: the values authorization checks (edorg ids, people, namespaces).
import type { ResourceModel } from '../types.js';
import { compilePathGetter, type PathGetter } from './path-collector.js';

export interface DocumentSecurables {
  educationOrganizations: { name: string; path: string; value: unknown }[];
  students: unknown[];
  staffs: unknown[];
  contacts: unknown[];
  namespaces: unknown[];
}

export type SecurablesReader = (document: unknown) => DocumentSecurables;

/** Securable paths are identity paths, so they never cross an array. */
export function compileSecurablesReader(resource: ResourceModel): SecurablesReader {
  const elements = resource.securableElements;
  const edOrgs = elements.educationOrganizations.map((element) => ({
    ...element,
    get: compilePathGetter(element.path),
  }));
  const getters = (paths: string[]): PathGetter[] => paths.map(compilePathGetter);
  const students = getters(elements.students);
  const staffs = getters(elements.staffs);
  const contacts = getters(elements.contacts);
  const namespaces = getters(elements.namespaces);
  return (document) => ({
    educationOrganizations: edOrgs.map(({ name, path, get }) => ({ name, path, value: get(document) })),
    students: students.map((get) => get(document)),
    staffs: staffs.map((get) => get(document)),
    contacts: contacts.map((get) => get(document)),
    namespaces: namespaces.map((get) => get(document)),
  });
}
