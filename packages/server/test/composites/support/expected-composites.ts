// What each enrollment composite should answer, written from DS4AndDS5_Composites.xml by hand and computed from the
// documents as the store holds them: member by member, with the definition's display names. Absent values and
// empty arrays are left out, as the composites leave them out.
import { getModelRegistry } from '../../../src/model/index.js';
import type { Store } from '../../../src/store/index.js';

type Doc = Record<string, unknown>;

const RESOURCES = {
  localEducationAgencies: true,
  schools: true,
  sections: true,
  staffs: true,
  students: true,
  sessions: true,
  courseOfferings: true,
  courses: true,
  studentSchoolAssociations: true,
  studentSectionAssociations: true,
  studentEducationOrganizationAssociations: true,
  staffSectionAssociations: true,
  staffEducationOrganizationAssignmentAssociations: true,
} as const;

/** The documents of each resource, as the store holds them (in its order, which lists keep). */
export type SampleData = Record<keyof typeof RESOURCES | 'locations', Doc[]>;

async function storedDocuments(store: Store, endpoint: string): Promise<Doc[]> {
  const resource = getModelRegistry().getResource('ed-fi', endpoint)!;
  const { items } = await store.list(resource, { filters: [], offset: 0, limit: 100_000, totalCount: false });
  return items.map((item) => ({ id: item.id, ...(JSON.parse(item.bodyJson) as Doc) }));
}

export async function readSampleData(store: Store): Promise<SampleData> {
  const names = [...Object.keys(RESOURCES), 'locations'];
  const entries = await Promise.all(names.map(async (name) => [name, await storedDocuments(store, name)] as const));
  return Object.fromEntries(entries) as SampleData;
}

/** The object without undefined members and empty arrays. */
function compact(object: Doc): Doc {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)),
  );
}

function each(items: unknown, build: (item: Doc) => Doc): Doc[] | undefined {
  return Array.isArray(items) ? (items as Doc[]).map((item) => compact(build(item))) : undefined;
}

function ref(document: Doc, name: string): Doc {
  return (document[name] ?? {}) as Doc;
}

function idOf(documents: readonly Doc[], matches: (document: Doc) => boolean): string | undefined {
  return documents.find(matches)?.id as string | undefined;
}

const addresses = (document: Doc) =>
  each(document.addresses, (a) => ({
    addressTypeDescriptor: a.addressTypeDescriptor,
    streetNumberName: a.streetNumberName,
    city: a.city,
    stateAbbreviationDescriptor: a.stateAbbreviationDescriptor,
    postalCode: a.postalCode,
    nameOfCounty: a.nameOfCounty,
  }));
const identificationCodes = (document: Doc) =>
  each(document.identificationCodes, (code) => ({
    educationOrganizationIdentificationSystemDescriptor: code.educationOrganizationIdentificationSystemDescriptor,
    identificationCode: code.identificationCode,
  }));
const institutionTelephones = (document: Doc) =>
  each(document.institutionTelephones, (phone) => ({
    institutionTelephoneNumberTypeDescriptor: phone.institutionTelephoneNumberTypeDescriptor,
    telephoneNumber: phone.telephoneNumber,
  }));

/** The ODS discriminator of an education organization id among the sample's. */
function discriminatorOf(data: SampleData, educationOrganizationId: unknown): string {
  if (data.schools.some((school) => school.schoolId === educationOrganizationId)) return 'edfi.School';
  if (data.localEducationAgencies.some((lea) => lea.localEducationAgencyId === educationOrganizationId))
    return 'edfi.LocalEducationAgency';
  return 'other';
}

export function expectedLocalEducationAgency(lea: Doc): Doc {
  return compact({
    id: lea.id,
    localEducationAgencyId: lea.localEducationAgencyId,
    stateEducationAgencyId: ref(lea, 'stateEducationAgencyReference').stateEducationAgencyId,
    nameOfInstitution: lea.nameOfInstitution,
    shortNameOfInstitution: lea.shortNameOfInstitution,
    webSite: lea.webSite,
    localEducationAgencyCategoryDescriptor: lea.localEducationAgencyCategoryDescriptor,
    charterStatusDescriptor: lea.charterStatusDescriptor,
    addresses: addresses(lea),
    identificationCodes: identificationCodes(lea),
    institutionTelephones: institutionTelephones(lea),
  });
}

export function expectedSchool(data: SampleData, school: Doc): Doc {
  const leaId = ref(school, 'localEducationAgencyReference').localEducationAgencyId;
  return compact({
    localEducationAgency:
      leaId === undefined
        ? undefined
        : {
            id: idOf(data.localEducationAgencies, (lea) => lea.localEducationAgencyId === leaId),
            localEducationAgencyId: leaId,
          },
    id: school.id,
    schoolId: school.schoolId,
    nameOfInstitution: school.nameOfInstitution,
    shortNameOfInstitution: school.shortNameOfInstitution,
    webSite: school.webSite,
    schoolTypeDescriptor: school.schoolTypeDescriptor,
    addresses: addresses(school),
    educationOrganizationCategories: each(school.educationOrganizationCategories, (c) => ({
      category: c.educationOrganizationCategoryDescriptor,
    })),
    identificationCodes: identificationCodes(school),
    institutionTelephones: institutionTelephones(school),
    schoolCategories: each(school.schoolCategories, (c) => ({ category: c.schoolCategoryDescriptor })),
    gradeLevels: each(school.gradeLevels, (g) => ({ gradeLevelDescriptor: g.gradeLevelDescriptor })),
  });
}

/** Whether an association's sectionReference names the section. */
export function referencesSection(association: Doc, section: Doc): boolean {
  const key = ref(association, 'sectionReference');
  const offering = ref(section, 'courseOfferingReference');
  return (
    key.sectionIdentifier === section.sectionIdentifier &&
    key.localCourseCode === offering.localCourseCode &&
    key.schoolId === offering.schoolId &&
    key.schoolYear === offering.schoolYear &&
    key.sessionName === offering.sessionName
  );
}

export function expectedSection(data: SampleData, section: Doc): Doc {
  const offeringKey = ref(section, 'courseOfferingReference');
  const offering = data.courseOfferings.find(
    (candidate) =>
      candidate.localCourseCode === offeringKey.localCourseCode &&
      ref(candidate, 'schoolReference').schoolId === offeringKey.schoolId &&
      ref(candidate, 'sessionReference').schoolYear === offeringKey.schoolYear &&
      ref(candidate, 'sessionReference').sessionName === offeringKey.sessionName,
  )!;
  const courseKey = ref(offering, 'courseReference');
  const course = data.courses.find(
    (candidate) =>
      candidate.courseCode === courseKey.courseCode &&
      ref(candidate, 'educationOrganizationReference').educationOrganizationId === courseKey.educationOrganizationId,
  );
  const sessionKey = ref(offering, 'sessionReference');
  const session = data.sessions.find(
    (candidate) =>
      candidate.sessionName === sessionKey.sessionName &&
      ref(candidate, 'schoolReference').schoolId === sessionKey.schoolId &&
      ref(candidate, 'schoolYearTypeReference').schoolYear === sessionKey.schoolYear,
  )!;
  const location = ref(section, 'locationReference');
  return compact({
    id: section.id,
    sectionIdentifier: section.sectionIdentifier,
    sequenceOfCourse: section.sequenceOfCourse,
    educationalEnvironmentDescriptor: section.educationalEnvironmentDescriptor,
    availableCredits: section.availableCredits,
    staff: data.staffSectionAssociations
      .filter((association) => referencesSection(association, section))
      .map((association) => {
        const staffUniqueId = ref(association, 'staffReference').staffUniqueId;
        return { id: idOf(data.staffs, (staff) => staff.staffUniqueId === staffUniqueId), staffUniqueId };
      }),
    students: data.studentSectionAssociations
      .filter((association) => referencesSection(association, section))
      .map((association) => {
        const studentUniqueId = ref(association, 'studentReference').studentUniqueId;
        return compact({
          id: idOf(data.students, (student) => student.studentUniqueId === studentUniqueId),
          studentUniqueId,
          enrollmentBeginDate: association.beginDate,
          enrollmentEndDate: association.endDate,
        });
      }),
    maximumAvailableCreditTypeDescriptor: course?.maximumAvailableCreditTypeDescriptor,
    session: compact({
      id: session.id,
      schoolId: ref(session, 'schoolReference').schoolId,
      schoolYear: ref(session, 'schoolYearTypeReference').schoolYear,
      termDescriptor: session.termDescriptor,
      sessionName: session.sessionName,
      beginDate: session.beginDate,
      endDate: session.endDate,
      totalInstructionalDays: session.totalInstructionalDays,
    }),
    classPeriods: each(section.classPeriods, (period) => ({
      classPeriodName: ref(period, 'classPeriodReference').classPeriodName,
    })),
    localCourseCode: offering.localCourseCode,
    localCourseTitle: offering.localCourseTitle,
    location:
      section.locationReference === undefined
        ? undefined
        : compact({
            id: idOf(
              data.locations,
              (candidate) =>
                candidate.classroomIdentificationCode === location.classroomIdentificationCode &&
                ref(candidate, 'schoolReference').schoolId === location.schoolId,
            ),
            schoolId: location.schoolId,
            classroomIdentificationCode: location.classroomIdentificationCode,
          }),
  });
}

export function expectedStudent(data: SampleData, student: Doc): Doc {
  const { studentUniqueId } = student;
  const ofStudent = (association: Doc) => ref(association, 'studentReference').studentUniqueId === studentUniqueId;
  return compact({
    id: student.id,
    studentUniqueId,
    personalTitlePrefix: student.personalTitlePrefix,
    firstName: student.firstName,
    middleName: student.middleName,
    lastSurname: student.lastSurname,
    birthDate: student.birthDate,
    studentSchoolEnrollments: data.studentSchoolAssociations.filter(ofStudent).map((association) => {
      const schoolId = ref(association, 'schoolReference').schoolId;
      const school = data.schools.find((candidate) => candidate.schoolId === schoolId)!;
      return compact({
        id: school.id,
        schoolId,
        nameOfInstitution: school.nameOfInstitution,
        entryGradeLevelDescriptor: association.entryGradeLevelDescriptor,
        enrollmentBeginDate: association.entryDate,
        enrollmentEndDate: association.exitWithdrawDate,
      });
    }),
    studentDemographics: data.studentEducationOrganizationAssociations.filter(ofStudent).map((association) => {
      const educationOrganizationId = ref(association, 'educationOrganizationReference').educationOrganizationId;
      return compact({
        discriminator: discriminatorOf(data, educationOrganizationId),
        educationOrganizationId,
        loginId: association.loginId,
        sexDescriptor: association.sexDescriptor,
        hispanicLatinoEthnicity: association.hispanicLatinoEthnicity,
        languages: each(association.languages, (language) => ({ languageDescriptor: language.languageDescriptor })),
        races: each(association.races, (race) => ({ raceDescriptor: race.raceDescriptor })),
      });
    }),
  });
}

export function expectedStaff(data: SampleData, staff: Doc): Doc {
  const { staffUniqueId } = staff;
  return compact({
    id: staff.id,
    staffUniqueId,
    personalTitlePrefix: staff.personalTitlePrefix,
    firstName: staff.firstName,
    lastSurname: staff.lastSurname,
    loginId: staff.loginId,
    sexDescriptor: staff.sexDescriptor,
    hispanicLatinoEthnicity: staff.hispanicLatinoEthnicity,
    electronicMails: each(staff.electronicMails, (mail) => ({
      electronicMailTypeDescriptor: mail.electronicMailTypeDescriptor,
      electronicMailAddress: mail.electronicMailAddress,
    })),
    identificationCodes: each(staff.identificationCodes, (code) => ({
      staffIdentificationSystemDescriptor: code.staffIdentificationSystemDescriptor,
      identificationCode: code.identificationCode,
    })),
    languages: each(staff.languages, (language) => ({ languageDescriptor: language.languageDescriptor })),
    races: each(staff.races, (race) => ({ raceDescriptor: race.raceDescriptor })),
    telephones: each(staff.telephones, (phone) => ({
      telephoneNumberTypeDescriptor: phone.telephoneNumberTypeDescriptor,
      orderOfPriority: phone.orderOfPriority,
      telephoneNumber: phone.telephoneNumber,
    })),
    educationOrganizationAssignments: data.staffEducationOrganizationAssignmentAssociations
      .filter((association) => ref(association, 'staffReference').staffUniqueId === staffUniqueId)
      .map((association) => {
        const educationOrganizationId = ref(association, 'educationOrganizationReference').educationOrganizationId;
        return compact({
          staffClassificationDescriptor: association.staffClassificationDescriptor,
          discriminator: discriminatorOf(data, educationOrganizationId),
          educationOrganizationId,
        });
      }),
  });
}
