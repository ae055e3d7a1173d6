// Small builders of ed-org and enrolment documents for data sets of several districts (authorization tests, benchmark).

const categories = (name: string) => [
  { educationOrganizationCategoryDescriptor: `uri://ed-fi.org/EducationOrganizationCategoryDescriptor#${name}` },
];

export function localEducationAgency(id: number, stateEducationAgencyId?: number): Record<string, unknown> {
  return {
    localEducationAgencyId: id,
    nameOfInstitution: `District ${id}`,
    localEducationAgencyCategoryDescriptor: 'uri://ed-fi.org/LocalEducationAgencyCategoryDescriptor#Independent',
    categories: categories('Local Education Agency'),
    ...(stateEducationAgencyId === undefined ? {} : { stateEducationAgencyReference: { stateEducationAgencyId } }),
  };
}

export function stateEducationAgency(id: number): Record<string, unknown> {
  return {
    stateEducationAgencyId: id,
    nameOfInstitution: `State ${id}`,
    categories: categories('State Education Agency'),
  };
}

export function school(id: number, localEducationAgencyId: number): Record<string, unknown> {
  return {
    schoolId: id,
    nameOfInstitution: `School ${id}`,
    localEducationAgencyReference: { localEducationAgencyId },
    educationOrganizationCategories: categories('School'),
    gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
  };
}

export function student(studentUniqueId: string): Record<string, unknown> {
  return { studentUniqueId, firstName: 'F', lastSurname: studentUniqueId, birthDate: '2010-05-12' };
}

export function enrollment(studentUniqueId: string, schoolId: number): Record<string, unknown> {
  return {
    studentReference: { studentUniqueId },
    schoolReference: { schoolId },
    entryDate: '2021-08-23',
    entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  };
}
