// A relationship-based strategy on extension resources (Sample's studentArtProgramAssociations, the subclass of the
// core GeneralStudentProgramAssociation, and studentGraduationPlanAssociations): a claim set granting them with
// RelationshipsWithEdOrgsAndPeople lets a district's client see and write its own district's items only, through
// the authorization subjects the ODS generator gives these resources.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InjectResponse } from '@edfi-api/framework';
import { importClaimSets, readClaimSetFile } from '../../src/security/index.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { issueToken, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost } from '../support/system-writes.js';

const CLAIM_SET = 'Sample Program Vendor';
const RELATIONSHIPS = 'RelationshipsWithEdOrgsAndPeople';
const ACTIONS = ['Create', 'Read', 'Update', 'Delete'];
const claimSetFile = JSON.stringify({
  claimSets: [
    {
      name: CLAIM_SET,
      resourceClaims: ['studentArtProgramAssociation', 'studentGraduationPlanAssociation'].map((resource) => ({
        name: `http://ed-fi.org/identity/claims/sample/${resource}`,
        actions: ACTIONS.map((name) => ({ name, authorizationStrategyOverrides: [RELATIONSHIPS] })),
      })),
    },
  ],
});

const program = (schoolId: number) => ({
  educationOrganizationReference: { educationOrganizationId: schoolId },
  programName: `Art ${schoolId}`,
  programTypeDescriptor: 'uri://ed-fi.org/ProgramTypeDescriptor#Other',
});
const artProgramAssociation = (studentUniqueId: string, schoolId: number, beginDate = '2021-09-01') => ({
  educationOrganizationReference: { educationOrganizationId: schoolId },
  programReference: {
    educationOrganizationId: schoolId,
    programName: `Art ${schoolId}`,
    programTypeDescriptor: 'uri://ed-fi.org/ProgramTypeDescriptor#Other',
  },
  studentReference: { studentUniqueId },
  beginDate,
  privateArtProgram: false,
  styles: [{ style: 'Watercolour' }],
});
const graduationPlan = (schoolId: number) => ({
  educationOrganizationReference: { educationOrganizationId: schoolId },
  graduationPlanTypeDescriptor: 'uri://ed-fi.org/GraduationPlanTypeDescriptor#Standard',
  graduationSchoolYearTypeReference: { schoolYear: 2026 },
  totalRequiredCredits: 24,
});
const graduationPlanAssociation = (studentUniqueId: string, schoolId: number) => ({
  graduationPlanReference: {
    educationOrganizationId: schoolId,
    graduationPlanTypeDescriptor: 'uri://ed-fi.org/GraduationPlanTypeDescriptor#Standard',
    graduationSchoolYear: 2026,
  },
  studentReference: { studentUniqueId },
  effectiveDate: '2021-09-01',
  hoursPerWeek: 30,
  targetGPA: 3.5,
  academicSubjects: [{ academicSubjectDescriptor: 'uri://ed-fi.org/AcademicSubjectDescriptor#Composite' }],
  designatedBies: [{ designatedBy: 'Counselor' }],
  yearsAttendeds: [{ yearsAttended: 4 }],
});

/** Migrating a PostgreSQL schema to serve Sample takes several seconds on a loaded machine. */
const SETUP_TIMEOUT_MS = 120_000;
const NOT_AUTHORIZED = 'Access to the requested data could not be authorized.';

describeEachStore('a relationship-based strategy on Sample resources', (stores) => {
  let edfi: EdFiTestServer;
  let districtA: string;
  let districtB: string;
  const artIds: string[] = [];
  const planIds: string[] = [];

  const send = (token: string, method: string, path: string, body?: unknown): Promise<InjectResponse> =>
    edfi.data(method, `/sample/${path}`, { body, headers: { authorization: `Bearer ${token}` } });

  async function list(token: string, path: string): Promise<{ items: Record<string, unknown>[]; total: number }> {
    const response = await send(token, 'GET', `${path}?totalCount=true`);
    expect(response.status, response.body).toBe(200);
    return { items: response.json(), total: Number(response.headers['total-count']) };
  }

  beforeAll(async () => {
    edfi = await startEdFiServer({ store: await stores.newSpec(), enforceAuthorization: true, extensions: ['sample'] });
    const post = (endpoint: string, document: object) => systemPost(edfi.store, edfi.registry, endpoint, document);
    for (const [lea, schoolId, studentId] of [
      [100, 1001, 'S-A'],
      [200, 2001, 'S-B'],
    ] as const) {
      await post('localEducationAgencies', localEducationAgency(lea));
      await post('schools', school(schoolId, lea));
      await post('students', student(studentId));
      await post('studentSchoolAssociations', enrollment(studentId, schoolId));
      await post('programs', program(schoolId));
      await post('graduationPlans', graduationPlan(schoolId));
      artIds.push(await post('sample/studentArtProgramAssociations', artProgramAssociation(studentId, schoolId)));
      planIds.push(
        await post('sample/studentGraduationPlanAssociations', graduationPlanAssociation(studentId, schoolId)),
      );
    }
    await post('students', student('S-N'));
    await importClaimSets(edfi.store, readClaimSetFile(claimSetFile));
    districtA = await issueToken(edfi.server, edfi.store, { claimSet: CLAIM_SET, educationOrganizationIds: [100] });
    districtB = await issueToken(edfi.server, edfi.store, { claimSet: CLAIM_SET, educationOrganizationIds: [200] });
  }, SETUP_TIMEOUT_MS);
  afterAll(() => edfi.close());

  it('filters the lists to the district’s students and schools, Total-Count included', async () => {
    const studentsOf = (items: Record<string, unknown>[]) =>
      items.map((item) => (item.studentReference as { studentUniqueId: string }).studentUniqueId);
    for (const path of ['studentArtProgramAssociations', 'studentGraduationPlanAssociations']) {
      const a = await list(districtA, path);
      const b = await list(districtB, path);
      expect([studentsOf(a.items), a.total]).toEqual([['S-A'], 1]);
      expect([studentsOf(b.items), b.total]).toEqual([['S-B'], 1]);
    }
  });

  it('refuses GET, PUT and DELETE of another district’s item with the relationship 403', async () => {
    const other = artIds[1]!;
    const get = await send(districtA, 'GET', `studentArtProgramAssociations/${other}`);
    expect(get.status).toBe(403);
    expect(get.json()).toMatchObject({
      type: 'urn:ed-fi:api:security:authorization',
      detail: `${NOT_AUTHORIZED} Hint: You may need to create a corresponding 'StudentSchoolAssociation' item.`,
      errors: [
        "No relationships have been established between the caller's education organization id claim (100) and " +
          "one or more of the following properties of the resource item: 'EducationOrganizationId', 'StudentUniqueId'.",
      ],
    });
    const changed = { ...artProgramAssociation('S-B', 2001), privateArtProgram: true };
    expect((await send(districtA, 'PUT', `studentArtProgramAssociations/${other}`, changed)).status).toBe(403);
    expect((await send(districtA, 'DELETE', `studentArtProgramAssociations/${other}`)).status).toBe(403);
    expect((await send(districtA, 'GET', `studentGraduationPlanAssociations/${planIds[1]!}`)).status).toBe(403);
    expect((await send(districtB, 'GET', `studentArtProgramAssociations/${other}`)).status).toBe(200);
  });

  it('allows writes inside the district and refuses them outside it or for a student not enrolled there', async () => {
    const inside = await send(districtA, 'POST', 'studentArtProgramAssociations', {
      ...artProgramAssociation('S-A', 1001, '2022-01-10'),
    });
    expect(inside.status, inside.body).toBe(201);
    const otherSchool = await send(districtA, 'POST', 'studentArtProgramAssociations', {
      ...artProgramAssociation('S-B', 2001, '2022-01-10'),
    });
    expect(otherSchool.status).toBe(403);
    const unenrolled = await send(districtA, 'POST', 'studentArtProgramAssociations', {
      ...artProgramAssociation('S-N', 1001, '2022-01-10'),
    });
    expect(unenrolled.status).toBe(403);
    const own = await send(districtB, 'PUT', `studentArtProgramAssociations/${artIds[1]!}`, {
      ...artProgramAssociation('S-B', 2001),
      privateArtProgram: true,
    });
    expect(own.status, own.body).toBe(204);
    expect((await send(districtA, 'DELETE', `studentGraduationPlanAssociations/${planIds[0]!}`)).status).toBe(204);
    expect((await list(districtA, 'studentArtProgramAssociations')).total).toBe(2);
  });
});
