// The documents of the contract's worked example (Appendix D): an LEA, its school, a student and the enrollment.

export const leaDocument = {
  localEducationAgencyId: 255901,
  nameOfInstitution: 'Grand Bend ISD',
  localEducationAgencyCategoryDescriptor: 'uri://ed-fi.org/LocalEducationAgencyCategoryDescriptor#Independent',
  categories: [
    {
      educationOrganizationCategoryDescriptor:
        'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#Local Education Agency',
    },
  ],
};

export const schoolDocument = {
  schoolId: 255901001,
  nameOfInstitution: 'Grand Bend High School',
  localEducationAgencyReference: { localEducationAgencyId: 255901 },
  educationOrganizationCategories: [
    { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
  ],
  gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
};

export const studentDocument = {
  studentUniqueId: '604822',
  firstName: 'Lisa',
  lastSurname: 'Woods',
  birthDate: '2010-05-12',
};

export const enrollmentDocument = {
  studentReference: { studentUniqueId: '604822' },
  schoolReference: { schoolId: 255901001 },
  entryDate: '2021-08-23',
  entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
};
