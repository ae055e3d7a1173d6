// The Grand Bend sample for composite tests: its education organizations, calendar, master schedule, staff and
// students loaded straight into the store; then, since the sample ships no enrolment interchange, enrolments written
// through the API (school, section and demographics for some students), and a second district with one student.
import path from 'node:path';
import { createDirectTarget, loadFiles } from '../../../src/load/index.js';
import { temporaryFolder } from '../../load/support/convert-files.js';
import { localEducationAgency, school, student } from '../../support/district-documents.js';
import { SAMPLE_DATA } from '../../support/edfi-source.js';
import type { InjectResponse } from '@edfi-api/framework';
import { DATA_PATH, issueToken, type EdFiTestServer } from '../../support/edfi-server.js';

export const GRAND_BEND = 255901;
export const OTHER_DISTRICT = 255902;
export const OTHER_SCHOOL = 255902001;
export const OTHER_STUDENT = 'OTHER-1';
/** How many sample students get enrolments. */
export const ENROLLED_STUDENTS = 45;

const SAMPLE_FILES = [
  'AncestryEthnicOriginDescriptor.xml',
  'IndicatorDescriptor.xml',
  'IndicatorGroupDescriptor.xml',
  'IndicatorLevelDescriptor.xml',
  'ProgramCharacteristicDescriptor.xml',
  'EducationOrganization.xml',
  'EducationOrgCalendar.xml',
  'MasterSchedule.xml',
  'StaffAssociation.xml',
  'Student.xml',
];

type Doc = Record<string, unknown>;

/** A data API request (`/ed-fi/…`) with a client that may read and write everything. */
export type SystemRequest = (method: string, path: string, body?: Doc) => Promise<InjectResponse>;

/** The claim set of the ODS end-to-end tests that needs no further authorization. */
export async function systemRequests(edfi: EdFiTestServer): Promise<{ token: string; request: SystemRequest }> {
  const token = await issueToken(edfi.server, edfi.store, { claimSet: 'E2E-NoFurtherAuthRequiredClaimSet' });
  const request: SystemRequest = (method, path, body) =>
    edfi.server.inject({
      method,
      url: `${DATA_PATH}${path}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { token, request };
}

/** Every document of a resource through the data API, in its order. */
export async function listAll(request: SystemRequest, endpoint: string): Promise<Doc[]> {
  const all: Doc[] = [];
  for (let offset = 0; ; offset += 500) {
    const response = await request('GET', `/ed-fi/${endpoint}?limit=500&offset=${offset}`);
    if (response.status !== 200) throw new Error(`GET ${endpoint}: ${response.status} ${response.body}`);
    const page = response.json<Doc[]>();
    all.push(...page);
    if (page.length < 500) return all;
  }
}

async function post(request: SystemRequest, endpoint: string, body: Doc): Promise<void> {
  const response = await request('POST', `/ed-fi/${endpoint}`, body);
  if (response.status !== 201) throw new Error(`POST ${endpoint}: ${response.status} ${response.body}`);
}

function sectionKey(section: Doc): Doc {
  const offering = section.courseOfferingReference as Doc;
  return {
    sectionIdentifier: section.sectionIdentifier,
    localCourseCode: offering.localCourseCode,
    schoolId: offering.schoolId,
    schoolYear: offering.schoolYear,
    sessionName: offering.sessionName,
  };
}

export async function loadEnrollmentSample(edfi: EdFiTestServer, request: SystemRequest): Promise<void> {
  const folder = temporaryFolder();
  const summary = await loadFiles({
    inputs: SAMPLE_FILES.map((file) => path.join(SAMPLE_DATA, file)),
    target: createDirectTarget({ store: edfi.store, registry: edfi.registry, description: 'the test store' }),
    failedFile: path.join(folder, 'failed.jsonl'),
  });
  if (summary.documents < 2000) throw new Error(`The sample did not load: ${JSON.stringify(summary)}`);

  const schools = await listAll(request, 'schools');
  const sections = await listAll(request, 'sections');
  const students = (await listAll(request, 'students')).slice(0, ENROLLED_STUDENTS);
  for (const [index, { studentUniqueId }] of students.entries()) {
    const schoolId = schools[index % schools.length]!.schoolId as number;
    const studentReference = { studentUniqueId };
    await post(request, 'studentSchoolAssociations', {
      studentReference,
      schoolReference: { schoolId },
      entryDate: '2021-08-23',
      entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
      ...(index % 4 === 0 ? { exitWithdrawDate: '2022-05-27' } : {}),
    });
    const ofSchool = sections.filter((section) => (section.courseOfferingReference as Doc).schoolId === schoolId);
    for (const section of [ofSchool[index % ofSchool.length], ofSchool[(index + 7) % ofSchool.length]]) {
      await post(request, 'studentSectionAssociations', {
        studentReference,
        sectionReference: sectionKey(section!),
        beginDate: '2021-08-23',
        ...(index % 3 === 0 ? { endDate: '2021-12-17' } : {}),
      });
    }
    if (index % 2 === 0) {
      await post(request, 'studentEducationOrganizationAssociations', {
        studentReference,
        educationOrganizationReference: { educationOrganizationId: index % 4 === 0 ? GRAND_BEND : schoolId },
        sexDescriptor: 'uri://ed-fi.org/SexDescriptor#Female',
        hispanicLatinoEthnicity: index % 3 === 0,
        loginId: `login-${studentUniqueId as string}`,
        races: [{ raceDescriptor: 'uri://ed-fi.org/RaceDescriptor#Asian' }],
        languages: [{ languageDescriptor: 'uri://ed-fi.org/LanguageDescriptor#eng' }],
      });
    }
  }

  await post(request, 'localEducationAgencies', localEducationAgency(OTHER_DISTRICT));
  await post(request, 'schools', school(OTHER_SCHOOL, OTHER_DISTRICT));
  await post(request, 'students', student(OTHER_STUDENT));
  await post(request, 'studentSchoolAssociations', {
    studentReference: { studentUniqueId: OTHER_STUDENT },
    schoolReference: { schoolId: OTHER_SCHOOL },
    entryDate: '2021-08-23',
    entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  });
}
