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
  term: 'uri://ed-fi.org/TermDescriptor#Fall Semester',
  courseIdentificationSystem: 'uri://ed-fi.org/CourseIdentificationSystemDescriptor#LEA course code',
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

/** The natural key of a Section, as references to it carry it. */
export interface SectionKey {
  readonly localCourseCode: string;
  readonly schoolId: number;
  readonly schoolYear: number;
  readonly sectionIdentifier: string;
  readonly sessionName: string;
}

/** The section the change-tracking tests and benchmark use: Algebra I in the fall session of 2022. */
export function algebraSection(schoolId: number): SectionKey {
  return { localCourseCode: 'ALG-1', schoolId, schoolYear: 2022, sectionIdentifier: 'ALG-1-01', sessionName: 'Fall' };
}

export function session(schoolId: number, sessionName: string, schoolYear = 2022): Record<string, unknown> {
  return {
    beginDate: `${schoolYear - 1}-08-23`,
    endDate: `${schoolYear - 1}-12-17`,
    schoolReference: { schoolId },
    schoolYearTypeReference: { schoolYear },
    sessionName,
    termDescriptor: uri.term,
    totalInstructionalDays: 80,
  };
}

export function course(courseCode: string, educationOrganizationId: number): Record<string, unknown> {
  return {
    courseCode,
    courseTitle: `Course ${courseCode}`,
    educationOrganizationReference: { educationOrganizationId },
    identificationCodes: [
      { courseIdentificationSystemDescriptor: uri.courseIdentificationSystem, identificationCode: courseCode },
    ],
    numberOfParts: 1,
  };
}

/** A course offering of the course with the same code, offered by the school that defines the course. */
export function courseOffering(key: Omit<SectionKey, 'sectionIdentifier'>): Record<string, unknown> {
  const { localCourseCode, schoolId, schoolYear, sessionName } = key;
  return {
    courseReference: { courseCode: localCourseCode, educationOrganizationId: schoolId },
    localCourseCode,
    schoolReference: { schoolId },
    sessionReference: { schoolId, schoolYear, sessionName },
  };
}

export function section(
  key: SectionKey,
  options: { readonly classPeriodNames?: readonly string[]; readonly classroom?: string } = {},
): Record<string, unknown> {
  const { localCourseCode, schoolId, schoolYear, sessionName, sectionIdentifier } = key;
  return {
    classPeriods: (options.classPeriodNames ?? []).map((classPeriodName) => ({
      classPeriodReference: { classPeriodName, schoolId },
    })),
    courseOfferingReference: { localCourseCode, schoolId, schoolYear, sessionName },
    ...(options.classroom === undefined
      ? {}
      : { locationReference: { classroomIdentificationCode: options.classroom, schoolId } }),
    sectionIdentifier,
  };
}

export function studentSectionAssociation(
  studentUniqueId: string,
  key: SectionKey,
  beginDate = '2021-08-23',
): Record<string, unknown> {
  return { beginDate, sectionReference: { ...key }, studentReference: { studentUniqueId } };
}

export function classPeriod(classPeriodName: string, schoolId: number): Record<string, unknown> {
  return { classPeriodName, schoolReference: { schoolId } };
}

export function location(classroomIdentificationCode: string, schoolId: number): Record<string, unknown> {
  return { classroomIdentificationCode, schoolReference: { schoolId } };
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
  sessions: resourceNamed('sessions'),
  courses: resourceNamed('courses'),
  courseOfferings: resourceNamed('courseOfferings'),
  sections: resourceNamed('sections'),
  studentSectionAssociations: resourceNamed('studentSectionAssociations'),
  classPeriods: resourceNamed('classPeriods'),
  locations: resourceNamed('locations'),
} as const;
