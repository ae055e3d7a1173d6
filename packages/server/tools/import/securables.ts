// Securable elements by the MetaEd convention: identity paths naming an edorg id, a person unique id or a namespace.
import type { JsonPath, SecurableElements } from '../../src/model/types.js';
import { compareText } from './ordering.js';

const EDUCATION_ORGANIZATION_ID_LEAVES = new Set([
  'educationOrganizationId',
  'communityOrganizationId',
  'communityProviderId',
  'educationOrganizationNetworkId',
  'educationServiceCenterId',
  'localEducationAgencyId',
  'organizationDepartmentId',
  'postSecondaryInstitutionId',
  'schoolId',
  'stateEducationAgencyId',
]);

function leafOf(path: JsonPath): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * `queryFields` names are the ODS column names (camelCased), so the parameter that matches an edorg path gives the
 * ODS authorization endpoint name, e.g. `$.courseReference.educationOrganizationId` → `CourseEducationOrganizationId`.
 */
export function securableElementsOf(
  identityPaths: JsonPath[],
  queryFields: Record<string, JsonPath[]>,
): SecurableElements {
  const elements: SecurableElements = {
    educationOrganizations: [],
    students: [],
    staffs: [],
    contacts: [],
    namespaces: [],
  };
  for (const path of [...identityPaths].sort(compareText)) {
    const leaf = leafOf(path);
    if (EDUCATION_ORGANIZATION_ID_LEAVES.has(leaf)) {
      const parameter = Object.entries(queryFields).find(([, paths]) => paths.includes(path))?.[0] ?? leaf;
      elements.educationOrganizations.push({ name: pascalCase(parameter), path });
    } else if (leaf === 'studentUniqueId') elements.students.push(path);
    else if (leaf === 'staffUniqueId') elements.staffs.push(path);
    else if (leaf === 'contactUniqueId') elements.contacts.push(path);
    else if (leaf === 'namespace') elements.namespaces.push(path);
  }
  return elements;
}
