// Hand-written canonical documents (model property order) for the store conformance suite, and the descriptors they use.
import { getModelRegistry } from '../../src/model/index.js';
import type { Store } from '../../src/store/store.js';
import { resourceNamed } from './document-writes.js';

const registry = getModelRegistry();

export const uri = {
  ninthGrade: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  tenthGrade: 'uri://ed-fi.org/GradeLevelDescriptor#Tenth grade',
  schoolCategory: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School',
  leaCategory: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#Local Education Agency',
  leaType: 'uri://ed-fi.org/LocalEducationAgencyCategoryDescriptor#Independent',
  cohortYearType: 'uri://ed-fi.org/CohortYearTypeDescriptor#Ninth grade',
  sex: 'uri://ed-fi.org/SexDescriptor#Female',
} as const;

/** Seeds every descriptor the sample documents use (the URI's last path segment names the descriptor). */
export async function seedSampleDescriptors(store: Store): Promise<void> {
  for (const value of Object.values(uri)) {
    const [namespace, codeValue] = value.split('#') as [string, string];
    const descriptor = registry.getResourceByName(namespace.slice(namespace.lastIndexOf('/') + 1), 'ed-fi');
    if (!descriptor) throw new Error(`No descriptor resource for ${value}`);
    await store.seedDescriptors(descriptor, [{ namespace, codeValue, shortDescription: codeValue }]);
  }
}

export function school(schoolId: number, nameOfInstitution = `School ${schoolId}`): Record<string, unknown> {
  return {
    educationOrganizationCategories: [{ educationOrganizationCategoryDescriptor: uri.schoolCategory }],
    gradeLevels: [{ gradeLevelDescriptor: uri.ninthGrade }],
    nameOfInstitution,
    schoolId,
  };
}

export function localEducationAgency(localEducationAgencyId: number): Record<string, unknown> {
  return {
    categories: [{ educationOrganizationCategoryDescriptor: uri.leaCategory }],
    localEducationAgencyCategoryDescriptor: uri.leaType,
    localEducationAgencyId,
    nameOfInstitution: `District ${localEducationAgencyId}`,
  };
}

export function student(studentUniqueId: string, firstName = 'Ada'): Record<string, unknown> {
  return { birthDate: '2010-05-01', firstName, lastSurname: 'Lovelace', studentUniqueId };
}

export function schoolYearType(schoolYear: number): Record<string, unknown> {
  return { currentSchoolYear: false, schoolYear, schoolYearDescription: `${schoolYear - 1}-${schoolYear}` };
}

export interface AssociationOptions {
  readonly entryDate?: string;
  readonly entryGradeLevelDescriptor?: string;
  readonly primarySchool?: boolean;
  readonly schoolYear?: number;
}

export function studentSchoolAssociation(
  studentUniqueId: string,
  schoolId: number,
  options: AssociationOptions = {},
): Record<string, unknown> {
  return {
    entryDate: options.entryDate ?? '2021-08-23',
    entryGradeLevelDescriptor: options.entryGradeLevelDescriptor ?? uri.ninthGrade,
    ...(options.primarySchool === undefined ? {} : { primarySchool: options.primarySchool }),
    schoolReference: { schoolId },
    ...(options.schoolYear === undefined ? {} : { schoolYearTypeReference: { schoolYear: options.schoolYear } }),
    studentReference: { studentUniqueId },
  };
}

export function studentEducationOrganizationAssociation(
  studentUniqueId: string,
  educationOrganizationId: number,
  cohortSchoolYears: readonly number[] = [],
): Record<string, unknown> {
  return {
    cohortYears: cohortSchoolYears.map((schoolYear) => ({
      cohortYearTypeDescriptor: uri.cohortYearType,
      schoolYearTypeReference: { schoolYear },
    })),
    educationOrganizationReference: { educationOrganizationId },
    studentReference: { studentUniqueId },
  };
}

export const resources = {
  schools: resourceNamed('schools'),
  localEducationAgencies: resourceNamed('localEducationAgencies'),
  students: resourceNamed('students'),
  schoolYearTypes: resourceNamed('schoolYearTypes'),
  studentSchoolAssociations: resourceNamed('studentSchoolAssociations'),
  studentEducationOrganizationAssociations: resourceNamed('studentEducationOrganizationAssociations'),
  gradeLevelDescriptors: resourceNamed('gradeLevelDescriptors'),
  sexDescriptors: resourceNamed('sexDescriptors'),
} as const;
