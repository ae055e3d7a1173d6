// The authorization strategies through HTTP (contract §8.4–8.7): two districts, clients scoped to each, lists filtered
// silently, single items refused with the exact 403 bodies, namespaces, and change feeds authorized on tombstones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataClient, type DataClient } from '../support/data-client.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { systemPost } from '../support/system-writes.js';

const LEA_A = 100;
const LEA_B = 200;
const SCHOOL_A = 1001;
const SCHOOL_B = 2001;
const NS_A = 'uri://district-a.org';
const NS_B = 'uri://district-b.org';

const staff = (id: string) => ({ staffUniqueId: id, firstName: 'T', lastSurname: id });
const employment = (staffId: string, edOrgId: number) => ({
  staffReference: { staffUniqueId: staffId },
  educationOrganizationReference: { educationOrganizationId: edOrgId },
  employmentStatusDescriptor: 'uri://ed-fi.org/EmploymentStatusDescriptor#Contractual',
  hireDate: '2020-01-01',
});
const assignment = (staffId: string, edOrgId: number) => ({
  staffReference: { staffUniqueId: staffId },
  educationOrganizationReference: { educationOrganizationId: edOrgId },
  staffClassificationDescriptor: 'uri://ed-fi.org/StaffClassificationDescriptor#Assistant Principal',
  beginDate: '2020-01-01',
});
const contact = (id: string) => ({ contactUniqueId: id, firstName: 'C', lastSurname: id });
const studentContact = (studentId: string, contactId: string) => ({
  studentReference: { studentUniqueId: studentId },
  contactReference: { contactUniqueId: contactId },
});
const assessment = (id: string, namespace: string) => ({
  assessmentIdentifier: id,
  namespace,
  assessmentTitle: id,
  academicSubjects: [{ academicSubjectDescriptor: 'uri://ed-fi.org/AcademicSubjectDescriptor#Composite' }],
});

const DATA_SET: readonly [string, object][] = [
  ['localEducationAgencies', localEducationAgency(LEA_A)],
  ['localEducationAgencies', localEducationAgency(LEA_B)],
  ['schools', school(SCHOOL_A, LEA_A)],
  ['schools', school(SCHOOL_B, LEA_B)],
  ...['S-A', 'S-B', 'S-N'].map((id): [string, object] => ['students', student(id)]),
  ['studentSchoolAssociations', enrollment('S-A', SCHOOL_A)],
  ['studentSchoolAssociations', enrollment('S-B', SCHOOL_B)],
  ...['T-A', 'T-B'].map((id): [string, object] => ['staffs', staff(id)]),
  ['staffEducationOrganizationEmploymentAssociations', employment('T-A', LEA_A)],
  ['staffEducationOrganizationAssignmentAssociations', assignment('T-B', SCHOOL_B)],
  ...['C-A', 'C-B'].map((id): [string, object] => ['contacts', contact(id)]),
  ['studentContactAssociations', studentContact('S-A', 'C-A')],
  ['studentContactAssociations', studentContact('S-B', 'C-B')],
  ['assessments', assessment('ASMT-A', NS_A)],
  ['assessments', assessment('ASMT-B', NS_B)],
];

const NOT_AUTHORIZED = 'Access to the requested data could not be authorized.';
const STUDENT_HINT = "You may need to create a corresponding 'StudentSchoolAssociation' item.";

function relationshipProblem(error: string, hint?: string) {
  return {
    type: 'urn:ed-fi:api:security:authorization',
    title: 'Authorization Denied',
    status: 403,
    detail: hint === undefined ? NOT_AUTHORIZED : `${NOT_AUTHORIZED} Hint: ${hint}`,
    errors: [error],
    correlationId: expect.any(String),
  };
}

describeEachStore('the authorization strategies', (stores) => {
  let edfi: EdFiTestServer;
  let districtA: DataClient;
  let districtB: DataClient;
  /** The API ids of the seeded items, by resource and index within DATA_SET's items of that resource. */
  const ids = new Map<string, string[]>();

  async function seed(resource: string, document: object): Promise<string> {
    const id = await systemPost(edfi.store, edfi.registry, resource, document);
    ids.set(resource, [...(ids.get(resource) ?? []), id]);
    return id;
  }

  const clientWith = (claimSet: string, educationOrganizationIds: number[], prefixes: string[]) =>
    dataClient(edfi, claimSet, educationOrganizationIds, prefixes);

  const idOf = (resource: string, index: number) => ids.get(resource)![index]!;

  beforeAll(async () => {
    edfi = await startEdFiServer({ store: await stores.newSpec(), enforceAuthorization: true });
    for (const [resource, document] of DATA_SET) await seed(resource, document);
    districtA = await clientWith('SIS Vendor', [LEA_A], [NS_A]);
    districtB = await clientWith('SIS Vendor', [LEA_B], [NS_B]);
  });

  afterAll(() => edfi.close());

  describe('claim checks', () => {
    it('refuses an action the claim set does not grant with access-denied:action', async () => {
      const response = await districtA.send('POST', 'schools', school(1002, LEA_A));
      expect(response.status).toBe(403);
      const body = response.json<{ type: string; errors: string[] }>();
      expect(body.type).toBe('urn:ed-fi:api:security:authorization:access-denied:action');
      expect(body.errors[0]).toMatch(
        /^The API client's assigned claim set \(currently 'SIS Vendor'\) must grant permission of the 'http:\/\/ed-fi\.org\/odsapi\/actions\/create' action/,
      );
    });

    it('refuses a resource outside the claim set with access-denied:resource', async () => {
      const reader = await clientWith('Assessment Read', [LEA_A], [NS_A]);
      const response = await reader.get('staffs');
      expect(response.status).toBe(403);
      expect(response.json<{ type: string }>().type).toBe(
        'urn:ed-fi:api:security:authorization:access-denied:resource',
      );
    });

    it('lets NoFurtherAuthorizationRequired reads through for everyone', async () => {
      expect((await districtA.list('schools')).total).toBe(2);
    });
  });

  describe('lists are filtered silently, Total-Count included', () => {
    /** The item's key: the value at a dotted path. */
    const keyAt = (path: string) => (item: Record<string, unknown>) =>
      path.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown>)[name], item);
    it.each([
      ['studentSchoolAssociations', 'studentReference.studentUniqueId', ['S-A'], ['S-B']],
      ['students', 'studentUniqueId', ['S-A'], ['S-B']],
      ['staffs', 'staffUniqueId', ['T-A'], ['T-B']],
      ['contacts', 'contactUniqueId', ['C-A'], ['C-B']],
      ['studentContactAssociations', 'contactReference.contactUniqueId', ['C-A'], ['C-B']],
      ['assessments', 'assessmentIdentifier', ['ASMT-A'], ['ASMT-B']],
    ])('%s', async (resource, keyPath, expectedA, expectedB) => {
      const a = await districtA.list(resource);
      const b = await districtB.list(resource);
      expect(a.items.map(keyAt(keyPath))).toEqual(expectedA);
      expect(a.total).toBe(expectedA.length);
      expect(b.items.map(keyAt(keyPath))).toEqual(expectedB);
      expect(b.total).toBe(expectedB.length);
    });

    it('students are visible only through a school of the LEA (an unenrolled student is nobody’s)', async () => {
      const keys = (await districtA.list<{ studentUniqueId: string }>('students')).items.map((s) => s.studentUniqueId);
      expect(keys).not.toContain('S-N');
    });

    it('partitions cover only authorized items', async () => {
      const response = await districtA.get('students/partitions?number=1&allowSmallPartitions=true');
      expect(response.status).toBe(200);
    });
  });

  describe('single items', () => {
    it('GET by id of another district’s student: 403 with the student hint', async () => {
      const response = await districtA.get(`students/${idOf('students', 1)}`);
      expect(response.status).toBe(403);
      expect(response.json()).toEqual(
        relationshipProblem(
          "No relationships have been established between the caller's education organization id claim (100) and " +
            "the resource item's 'StudentUniqueId' value.",
          STUDENT_HINT,
        ),
      );
    });

    it('GET, PUT and DELETE of another district’s enrollment: 403 naming both properties', async () => {
      const id = idOf('studentSchoolAssociations', 1);
      const expected = relationshipProblem(
        "No relationships have been established between the caller's education organization id claim (100) and one " +
          "or more of the following properties of the resource item: 'SchoolId', 'StudentUniqueId'.",
        STUDENT_HINT,
      );
      const get = await districtA.get(`studentSchoolAssociations/${id}`);
      expect([get.status, get.json()]).toEqual([403, expected]);
      const put = await districtA.send('PUT', `studentSchoolAssociations/${id}`, enrollment('S-B', SCHOOL_B));
      expect([put.status, put.json()]).toEqual([403, expected]);
      const remove = await districtA.send('DELETE', `studentSchoolAssociations/${id}`);
      expect([remove.status, remove.json()]).toEqual([403, expected]);
      expect((await districtB.get(`studentSchoolAssociations/${id}`)).status).toBe(200);
    });

    it('staff through employment (LEA) and assignment (school); contacts through their students', async () => {
      expect((await districtA.get(`staffs/${idOf('staffs', 0)}`)).status).toBe(200);
      expect((await districtB.get(`staffs/${idOf('staffs', 1)}`)).status).toBe(200);
      const staffDenied = await districtA.get(`staffs/${idOf('staffs', 1)}`);
      expect(staffDenied.json<{ detail: string }>().detail).toBe(
        `${NOT_AUTHORIZED} Hint: You may need to create corresponding 'StaffEducationOrganizationEmploymentAssociation' ` +
          "or 'StaffEducationOrganizationAssignmentAssociation' items.",
      );
      const contactDenied = await districtB.get(`contacts/${idOf('contacts', 0)}`);
      expect(contactDenied.status).toBe(403);
      expect(contactDenied.json<{ detail: string; errors: string[] }>()).toMatchObject({
        detail: `${NOT_AUTHORIZED} Hint: You may need to create corresponding 'StudentSchoolAssociation' and 'StudentContactAssociation' items.`,
        errors: [
          "No relationships have been established between the caller's education organization id claim (200) and " +
            "the resource item's 'ContactUniqueId' value.",
        ],
      });
    });

    it('create uses RelationshipsWithEdOrgsOnly: a new enrollment needs only the school in the hierarchy', async () => {
      const refused = await districtA.send('POST', 'studentSchoolAssociations', enrollment('S-N', SCHOOL_B));
      expect([refused.status, refused.json()]).toEqual([
        403,
        relationshipProblem(
          "No relationships have been established between the caller's education organization id claim (100) and " +
            "the resource item's 'SchoolId' value.",
        ),
      ]);
      expect((await districtA.get(`students/${idOf('students', 2)}`)).status).toBe(403);
      const created = await districtA.send('POST', 'studentSchoolAssociations', enrollment('S-N', SCHOOL_A));
      expect(created.status).toBe(201);
      expect((await districtA.get(`students/${idOf('students', 2)}`)).status).toBe(200);
    });

    it('POST of an existing item is an update, authorized on the existing and proposed data', async () => {
      const response = await districtB.send('POST', 'students', { ...student('S-A'), firstName: 'Changed' });
      expect(response.status).toBe(403);
      expect((await districtA.send('POST', 'students', { ...student('S-A'), firstName: 'Changed' })).status).toBe(200);
      expect((await districtA.send('PUT', `students/${idOf('students', 0)}`, student('S-A'))).status).toBe(204);
    });

    it('lists the sorted claims, at most five, and says none for a client without any', async () => {
      const many = await clientWith('SIS Vendor', [9, 7, 8, 6, 5, 4], []);
      const manyDenied = await many.get(`students/${idOf('students', 0)}`);
      expect(manyDenied.json<{ errors: string[] }>().errors[0]).toContain('id claims (4, 5, 6, 7, 8, ...) and');
      const none = await clientWith('SIS Vendor', [], []);
      const noneDenied = await none.get(`students/${idOf('students', 0)}`);
      expect(noneDenied.json<{ errors: string[] }>().errors[0]).toContain('id claims (none) and');
      expect((await none.list('students')).total).toBe(0);
    });
  });

  describe('NamespaceBased', () => {
    it('refuses existing and proposed data outside the prefixes, and clients without prefixes', async () => {
      const existing = await districtA.get(`assessments/${idOf('assessments', 1)}`);
      expect([existing.status, existing.json()]).toEqual([
        403,
        {
          type: 'urn:ed-fi:api:security:authorization:namespace:access-denied:namespace-mismatch',
          title: 'Authorization Denied',
          status: 403,
          detail: `${NOT_AUTHORIZED} The existing 'Namespace' value of the data does not start with any of the caller's associated namespace prefixes ('${NS_A}').`,
          correlationId: expect.any(String),
        },
      ]);
      const proposed = await districtA.send('POST', 'assessments', assessment('ASMT-X', `${NS_B}/x`));
      expect(proposed.json<{ detail: string }>().detail).toBe(
        `${NOT_AUTHORIZED} The 'Namespace' value of the data does not start with any of the caller's associated namespace prefixes ('${NS_A}').`,
      );
      const created = await districtA.send('POST', 'assessments', assessment('ASMT-A2', `${NS_A.toUpperCase()}/2`));
      expect(created.status).toBe(201);
      const none = await clientWith('SIS Vendor', [LEA_A], []);
      const refused = await none.get('assessments');
      expect(refused.json<{ type: string }>().type).toBe(
        'urn:ed-fi:api:security:authorization:namespace:invalid-client:no-namespaces',
      );
    });
  });

  describe('change feeds authorize on the values kept with each tombstone', () => {
    it('/deletes shows a district only its own deleted enrollments, even after the student lost them', async () => {
      const readerA = await clientWith('Ed-Fi API Publisher - Reader', [LEA_A], [NS_A]);
      const system = await clientWith('E2E-NoFurtherAuthRequiredClaimSet', [], []);
      const enrollA = await seed('studentSchoolAssociations', {
        ...enrollment('S-A', SCHOOL_A),
        entryDate: '2022-08-23',
      });
      const enrollB = await seed('studentSchoolAssociations', {
        ...enrollment('S-B', SCHOOL_B),
        entryDate: '2022-08-23',
      });
      for (const id of [enrollA, enrollB])
        expect((await system.send('DELETE', `studentSchoolAssociations/${id}`)).status).toBe(204);
      const deletes = await readerA.get('studentSchoolAssociations/deletes?totalCount=true');
      expect(deletes.status).toBe(200);
      expect(deletes.json<{ id: string }[]>().map((entry) => entry.id)).toEqual([enrollA]);
      expect(deletes.headers['total-count']).toBe('1');
    });
  });
});
