// POST, PUT and DELETE through HTTP (contract §3.4–§3.6, §3.8): statuses, headers, empty bodies and exact problems.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollmentDocument, leaDocument, schoolDocument, studentDocument } from '../support/documents.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { expectProblem, WITH_CORRELATION } from '../support/problems.js';

const ID_PATTERN = /^[0-9a-f]{32}$/;

function idFromLocation(location: string | undefined): string {
  const id = location?.split('/').pop() ?? '';
  expect(id).toMatch(ID_PATTERN);
  return id;
}

const optimisticLockFailed = {
  detail: 'The item has been modified by another user.',
  type: 'urn:ed-fi:api:optimistic-lock-failed',
  title: 'Optimistic Lock Failed',
  status: 412,
  errors: [
    "The resource item's etag value does not match what was specified in the 'If-Match' request header indicating that it has been modified by another client since it was last retrieved.",
  ],
};

describeEachStore('POST, PUT and DELETE', (stores) => {
  let app: EdFiTestServer;

  beforeAll(async () => {
    app = await startEdFiServer({ store: await stores.newSpec() });
    for (const [path, body] of [
      ['/ed-fi/localEducationAgencies', leaDocument],
      ['/ed-fi/schools', schoolDocument],
    ] as const) {
      expect((await app.data('POST', path, { body })).status).toBe(201);
    }
  });
  afterAll(() => app.close());

  async function createStudent(studentUniqueId: string): Promise<{ id: string; etag: string }> {
    const response = await app.data('POST', '/ed-fi/students', { body: { ...studentDocument, studentUniqueId } });
    expect(response.status).toBe(201);
    return { id: idFromLocation(response.headers.location), etag: response.headers.etag!.slice(1, -1) };
  }

  describe('POST', () => {
    it('creates with 201, an absolute Location, a quoted ETag and an empty body', async () => {
      const response = await app.data('POST', '/ed-fi/students', {
        body: { ...studentDocument, studentUniqueId: 'post-1' },
        headers: { host: 'api.example.org' },
      });
      expect(response.status).toBe(201);
      expect(response.headers.location).toMatch(
        /^http:\/\/api\.example\.org\/v7\.3\/api\/data\/v3\/ed-fi\/students\/[0-9a-f]{32}$/,
      );
      expect(response.headers.etag).toMatch(/^"\d+"$/);
      expect(response.headers['content-length']).toBe('0');
      expect(response.body).toBe('');
    });

    it('answers 200 with the same Location and ETag when nothing changed, and a new ETag after a change', async () => {
      const body = { ...studentDocument, studentUniqueId: 'post-2' };
      const created = await app.data('POST', '/ed-fi/students', { body });
      const unchanged = await app.data('POST', '/ed-fi/students', { body });
      expect(unchanged.status).toBe(200);
      expect(unchanged.headers.location).toBe(created.headers.location);
      expect(unchanged.headers.etag).toBe(created.headers.etag);
      expect(unchanged.body).toBe('');
      const changed = await app.data('POST', '/ed-fi/students', { body: { ...body, firstName: 'Lisa Marie' } });
      expect(changed.status).toBe(200);
      expect(changed.headers.location).toBe(created.headers.location);
      expect(changed.headers.etag).not.toBe(created.headers.etag);
    });

    it('keeps the requested collection path in Location, trailing slash removed', async () => {
      const response = await app.data('POST', '/ED-FI/Students/', {
        body: { ...studentDocument, studentUniqueId: 'post-3' },
      });
      expect(response.status).toBe(201);
      expect(response.headers.location).toMatch(/\/v7\.3\/api\/data\/v3\/ED-FI\/Students\/[0-9a-f]{32}$/);
    });

    it('honours If-Match only when the natural key names an existing item', async () => {
      const body = { ...studentDocument, studentUniqueId: 'post-4' };
      const created = await app.data('POST', '/ed-fi/students', { body, headers: { 'if-match': '"1"' } });
      expect(created.status).toBe(201);
      expectProblem(
        await app.data('POST', '/ed-fi/students', { body, headers: { ...WITH_CORRELATION, 'if-match': '"1"' } }),
        optimisticLockFailed,
      );
      const matching = await app.data('POST', '/ed-fi/students', {
        body: { ...body, firstName: 'Other' },
        headers: { 'if-match': created.headers.etag },
      });
      expect(matching.status).toBe(200);
    });

    it('refuses an id in the body', async () => {
      expectProblem(
        await app.data('POST', '/ed-fi/students', {
          body: { ...studentDocument, id: 'f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8' },
          headers: WITH_CORRELATION,
        }),
        {
          detail: 'The request data was constructed incorrectly.',
          type: 'urn:ed-fi:api:bad-request:data-validation-failed',
          title: 'Data Validation Failed',
          status: 400,
          errors: [
            "Resource identifiers cannot be assigned by the client. The 'id' property should not be included in the request body.",
          ],
        },
      );
    });

    it('refuses an empty body', async () => {
      expectProblem(
        await app.data('POST', '/ed-fi/students', {
          body: '',
          headers: { ...WITH_CORRELATION, 'content-type': 'application/json' },
        }),
        {
          detail: "The request could not be processed. See 'errors' for details.",
          type: 'urn:ed-fi:api:bad-request',
          title: 'Bad Request',
          status: 400,
          errors: ['A non-empty request body is required.'],
        },
      );
    });

    it('reports every validation failure, descriptor existence included', async () => {
      expectProblem(
        await app.data('POST', '/ed-fi/studentSchoolAssociations', {
          body: {
            ...enrollmentDocument,
            entryDate: undefined,
            entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Grade 42',
          },
          headers: WITH_CORRELATION,
        }),
        {
          detail: "Data validation failed. See 'validationErrors' for details.",
          type: 'urn:ed-fi:api:bad-request:data-validation-failed',
          title: 'Data Validation Failed',
          status: 400,
          validationErrors: {
            '$.entryDate': ['EntryDate is required.'],
            '$.entryGradeLevelDescriptor': [
              "GradeLevelDescriptor value 'uri://ed-fi.org/GradeLevelDescriptor#Grade 42' does not exist.",
            ],
          },
        },
      );
    });

    it('answers 409 naming a reference target that does not exist', async () => {
      expectProblem(
        await app.data('POST', '/ed-fi/studentSchoolAssociations', {
          body: { ...enrollmentDocument, studentReference: { studentUniqueId: 'nobody' } },
          headers: WITH_CORRELATION,
        }),
        {
          detail: "The referenced 'Student' item does not exist.",
          type: 'urn:ed-fi:api:data-conflict:unresolved-reference',
          title: 'Unresolved Reference',
          status: 409,
        },
      );
    });

    it('refuses POST to an item with an explanatory 405', async () => {
      const { id } = await createStudent('post-5');
      expectProblem(
        await app.data('POST', `/ed-fi/students/${id}`, { body: studentDocument, headers: WITH_CORRELATION }),
        {
          detail: 'The request construction was invalid.',
          type: 'urn:ed-fi:api:method-not-allowed',
          title: 'Method Not Allowed',
          status: 405,
          errors: [
            'Resource items can only be updated using PUT. To "upsert" an item in the resource collection using POST, remove the "id" from the route.',
          ],
        },
      );
    });
  });

  describe('POST bodies', () => {
    it('accepts trailing commas in objects and arrays, as Newtonsoft does', async () => {
      const { educationOrganizationCategories, gradeLevels, ...school } = schoolDocument;
      const text = JSON.stringify({ ...school, schoolId: 255901009 }).slice(0, -1);
      const body =
        `${text}, "educationOrganizationCategories": [${JSON.stringify(educationOrganizationCategories[0])},],` +
        ` "gradeLevels": [${JSON.stringify(gradeLevels[0]).slice(0, -1)},},],}`;
      const response = await app.data('POST', '/ed-fi/schools', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, response.body).toBe(201);
    });
  });

  describe('descriptor values', () => {
    it('are echoed as stored (namespace#codeValue of the stored descriptor), not as posted', async () => {
      const created = await app.data('POST', '/ed-fi/schools', {
        body: {
          ...schoolDocument,
          schoolId: 255901007,
          educationOrganizationCategories: [
            {
              educationOrganizationCategoryDescriptor: 'URI://ED-FI.ORG/EducationOrganizationCategoryDescriptor#school',
            },
          ],
          gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/gradeleveldescriptor#NINTH GRADE' }],
        },
      });
      expect(created.status, created.body).toBe(201);
      const school = (await app.data('GET', `/ed-fi/schools/${idFromLocation(created.headers.location)}`)).json();
      expect(school).toMatchObject({
        educationOrganizationCategories: [
          { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
        ],
        gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
      });
    });
  });

  describe('PUT', () => {
    it('replaces the item: 204 with Location and a new ETag, omitted members removed', async () => {
      const { id, etag } = await createStudent('put-1');
      await app.data('PUT', `/ed-fi/students/${id}`, {
        body: { ...studentDocument, studentUniqueId: 'put-1', middleName: 'Ann', otherNames: [] },
      });
      const response = await app.data('PUT', `/ed-fi/students/${id.toUpperCase()}`, {
        body: { ...studentDocument, studentUniqueId: 'put-1', id: 'ignored', firstName: 'Liz' },
        headers: { host: 'api.example.org' },
      });
      expect(response.status).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers.location).toBe(`http://api.example.org/v7.3/api/data/v3/ed-fi/students/${id}`);
      expect(response.headers.etag).not.toBe(`"${etag}"`);
      const read = (await app.data('GET', `/ed-fi/students/${id}`)).json<Record<string, unknown>>();
      expect(read.firstName).toBe('Liz');
      expect(read).not.toHaveProperty('middleName');
      expect(`"${String(read._etag)}"`).toBe(response.headers.etag);
    });

    it('refuses to change identifying values', async () => {
      const { id } = await createStudent('put-2');
      expectProblem(
        await app.data('PUT', `/ed-fi/students/${id}`, {
          body: { ...studentDocument, studentUniqueId: 'put-2-X' },
          headers: WITH_CORRELATION,
        }),
        {
          detail: 'Identifying values for the Student data cannot be changed. Delete and recreate the item instead.',
          type: 'urn:ed-fi:api:bad-request:data-validation-failed:key-change-not-supported',
          title: 'Key Change Not Supported',
          status: 400,
        },
      );
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expectProblem(
        await app.data('PUT', `/ed-fi/students/${'1'.repeat(32)}`, {
          body: studentDocument,
          headers: WITH_CORRELATION,
        }),
        {
          detail: 'Resource to update was not found.',
          type: 'urn:ed-fi:api:not-found',
          title: 'Not Found',
          status: 404,
        },
      );
      expectProblem(
        await app.data('PUT', '/ed-fi/students/abc', { body: studentDocument, headers: WITH_CORRELATION }),
        {
          detail: "Data validation failed. See 'validationErrors' for details.",
          type: 'urn:ed-fi:api:bad-request:data-validation-failed',
          title: 'Data Validation Failed',
          status: 400,
          validationErrors: { '$.id': ["The value 'abc' is not valid for id."] },
        },
      );
    });

    it('refuses an empty body under $, also when the id is malformed', async () => {
      const { id } = await createStudent('put-3');
      const emptyBodyProblem = (validationErrors: Record<string, string[]>) => ({
        detail: "Data validation failed. See 'validationErrors' for details.",
        type: 'urn:ed-fi:api:bad-request:data-validation-failed',
        title: 'Data Validation Failed',
        status: 400,
        validationErrors,
      });
      const putEmpty = (routeId: string) =>
        app.data('PUT', `/ed-fi/students/${routeId}`, {
          body: '',
          headers: { ...WITH_CORRELATION, 'content-type': 'application/json' },
        });
      const emptyBody = ['A non-empty request body is required.'];
      expectProblem(await putEmpty(id), emptyBodyProblem({ $: emptyBody }));
      expectProblem(
        await putEmpty('abc'),
        emptyBodyProblem({ $: emptyBody, '$.id': ["The value 'abc' is not valid for id."] }),
      );
    });

    it('checks If-Match: a stale value is 412, the current one succeeds', async () => {
      const { id, etag } = await createStudent('put-4');
      const body = { ...studentDocument, studentUniqueId: 'put-4', firstName: 'Changed' };
      const updated = await app.data('PUT', `/ed-fi/students/${id}`, { body, headers: { 'if-match': `"${etag}"` } });
      expect(updated.status).toBe(204);
      expectProblem(
        await app.data('PUT', `/ed-fi/students/${id}`, {
          body,
          headers: { ...WITH_CORRELATION, 'if-match': `"${etag}"` },
        }),
        optimisticLockFailed,
      );
    });

    it('refuses an If-Match value that is no DateTime binary', async () => {
      const { id } = await createStudent('put-5');
      expectProblem(
        await app.data('PUT', `/ed-fi/students/${id}`, {
          body: { ...studentDocument, studentUniqueId: 'put-5' },
          headers: { ...WITH_CORRELATION, 'if-match': '"4611686018427387903"' },
        }),
        {
          detail: 'An invalid value was provided for use in detecting changes applied by other users.',
          type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
          title: 'Parameter Validation Failed',
          status: 400,
          errors: ['An invalid ETag value was provided that could not be processed back into a Date/Time value.'],
        },
      );
    });

    it('refuses PUT on the collection with an explanatory 405', async () => {
      expectProblem(await app.data('PUT', '/ed-fi/students', { body: studentDocument, headers: WITH_CORRELATION }), {
        detail: 'The request construction was invalid.',
        type: 'urn:ed-fi:api:method-not-allowed',
        title: 'Method Not Allowed',
        status: 405,
        errors: [
          'Resource collections cannot be replaced. To "upsert" an item in the collection, use POST. To update a specific item, use PUT and include the "id" in the route.',
        ],
      });
    });
  });

  describe('DELETE', () => {
    it('deletes with 204 and no body; the item is gone afterwards', async () => {
      const { id } = await createStudent('delete-1');
      const response = await app.data('DELETE', `/ed-fi/students/${id}`);
      expect(response.status).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBeUndefined();
      expect((await app.data('GET', `/ed-fi/students/${id}`)).status).toBe(404);
      expectProblem(await app.data('DELETE', `/ed-fi/students/${id}`, { headers: WITH_CORRELATION }), {
        detail: 'Resource to delete was not found.',
        type: 'urn:ed-fi:api:not-found',
        title: 'Not Found',
        status: 404,
      });
    });

    it('answers 409 while another item references it', async () => {
      const { id } = await createStudent('604822');
      expect((await app.data('POST', '/ed-fi/studentSchoolAssociations', { body: enrollmentDocument })).status).toBe(
        201,
      );
      expectProblem(await app.data('DELETE', `/ed-fi/students/${id}`, { headers: WITH_CORRELATION }), {
        detail:
          "The requested action cannot be performed because this item is referenced by an existing 'StudentSchoolAssociation' item.",
        type: 'urn:ed-fi:api:data-conflict:dependent-item-exists',
        title: 'Dependent Item Exists',
        status: 409,
      });
    });

    it('names the child item holding a descriptor in use, and its parent, as the ODS does', async () => {
      const descriptorIn = async (endpoint: string, codeValue: string) => {
        const namespace = `uri://test.org/${endpoint.charAt(0).toUpperCase()}${endpoint.slice(1, -1)}`;
        const created = await app.data('POST', `/ed-fi/${endpoint}`, {
          body: { namespace, codeValue, shortDescription: codeValue },
        });
        expect(created.status, created.body).toBe(201);
        return idFromLocation(created.headers.location);
      };
      const category = await descriptorIn('educationOrganizationCategoryDescriptors', 'Magnet');
      const gradeLevel = await descriptorIn('gradeLevelDescriptors', 'Grade X');
      const school = {
        ...schoolDocument,
        schoolId: 255901002,
        educationOrganizationCategories: [
          { educationOrganizationCategoryDescriptor: 'uri://test.org/EducationOrganizationCategoryDescriptor#Magnet' },
        ],
        gradeLevels: [{ gradeLevelDescriptor: 'uri://test.org/GradeLevelDescriptor#Grade X' }],
      };
      const created = await app.data('POST', '/ed-fi/schools', { body: school });
      expect(created.status, created.body).toBe(201);
      const refused = (detail: string) => ({
        detail: `The requested action cannot be performed because this item is referenced by an existing ${detail}`,
        type: 'urn:ed-fi:api:data-conflict:dependent-item-exists',
        title: 'Dependent Item Exists',
        status: 409,
      });
      expectProblem(
        await app.data('DELETE', `/ed-fi/educationOrganizationCategoryDescriptors/${category}`, {
          headers: WITH_CORRELATION,
        }),
        refused(
          "'EducationOrganizationCategory' item contained within a resource item of one of the following types: " +
            'CommunityOrganization, CommunityProvider, EducationOrganizationNetwork, EducationServiceCenter, ' +
            'LocalEducationAgency, OrganizationDepartment, PostSecondaryInstitution, School, StateEducationAgency.',
        ),
      );
      expectProblem(
        await app.data('DELETE', `/ed-fi/gradeLevelDescriptors/${gradeLevel}`, { headers: WITH_CORRELATION }),
        refused("'SchoolGradeLevel' item contained within an 'School' resource item."),
      );
    });

    it('checks If-Match', async () => {
      const { id, etag } = await createStudent('delete-2');
      expectProblem(
        await app.data('DELETE', `/ed-fi/students/${id}`, { headers: { ...WITH_CORRELATION, 'if-match': '"12345"' } }),
        optimisticLockFailed,
      );
      expect((await app.data('DELETE', `/ed-fi/students/${id}`, { headers: { 'if-match': `"${etag}"` } })).status).toBe(
        204,
      );
    });

    it('answers 400 for a malformed id', async () => {
      expectProblem(await app.data('DELETE', '/ed-fi/students/not-a-guid', { headers: WITH_CORRELATION }), {
        detail: "Data validation failed. See 'validationErrors' for details.",
        type: 'urn:ed-fi:api:bad-request:data-validation-failed',
        title: 'Data Validation Failed',
        status: 400,
        validationErrors: { '$.id': ["The value 'not-a-guid' is not valid for id."] },
      });
    });

    it('refuses DELETE on the collection with an explanatory 405', async () => {
      expectProblem(await app.data('DELETE', '/ed-fi/students', { headers: WITH_CORRELATION }), {
        detail: 'The request construction was invalid.',
        type: 'urn:ed-fi:api:method-not-allowed',
        title: 'Method Not Allowed',
        status: 405,
        errors: [
          'Resource collections cannot be deleted. To delete a specific item, use DELETE and include the "id" in the route.',
        ],
      });
    });
  });
});
