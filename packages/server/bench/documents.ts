// Realistic request bodies for the HTTP benchmark: a school, students and student-school associations.

export const schoolId = 255901001;

export const school = {
  schoolId,
  nameOfInstitution: 'Benchmark High School',
  educationOrganizationCategories: [
    { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
  ],
  gradeLevels: [
    { gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' },
    { gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Tenth grade' },
  ],
};

export function studentUniqueId(n: number): string {
  return `B${String(n).padStart(8, '0')}`;
}

export function student(n: number): string {
  return JSON.stringify({
    studentUniqueId: studentUniqueId(n),
    firstName: 'Bench',
    lastSurname: `Student${n % 100}`,
    birthDate: '2010-05-17',
    birthCity: 'Grand Bend',
    birthSexDescriptor: 'uri://ed-fi.org/SexDescriptor#Female',
  });
}

export function studentSchoolAssociation(n: number): string {
  return JSON.stringify({
    studentReference: { studentUniqueId: studentUniqueId(n) },
    schoolReference: { schoolId },
    entryDate: '2024-08-20',
    entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
    entryTypeDescriptor: 'uri://ed-fi.org/EntryTypeDescriptor#Next year school',
    residencyStatusDescriptor: 'uri://ed-fi.org/ResidencyStatusDescriptor#Resident of admin unit and school area',
    primarySchool: true,
  });
}
