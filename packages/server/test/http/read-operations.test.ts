// GET by id and GET lists through HTTP (contract §3.2, §3.3, §3.9): representations, conditional reads, filters,
// paging headers and the exact 400/404 problems.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePageToken } from '../../src/api/page-token.js';
import { enrollmentDocument, leaDocument, schoolDocument, studentDocument } from '../support/documents.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { expectProblem, MIDDLEWARE_PROBLEM, WITH_CORRELATION } from '../support/problems.js';

const STUDENT_COUNT = 7;

type Item = Record<string, unknown>;

describeEachStore('GET by id and GET lists', (stores) => {
  let app: EdFiTestServer;
  const studentIds: string[] = [];

  beforeAll(async () => {
    app = await startEdFiServer({ store: await stores.newSpec() });
    await app.data('POST', '/ed-fi/localEducationAgencies', { body: leaDocument });
    await app.data('POST', '/ed-fi/schools', { body: schoolDocument });
    for (let index = 0; index < STUDENT_COUNT; index++) {
      const response = await app.data('POST', '/ed-fi/students', {
        body: { ...studentDocument, studentUniqueId: `s${index}`, firstName: index % 2 === 0 ? 'Even' : 'Odd' },
      });
      studentIds.push(response.headers.location!.split('/').pop()!);
    }
    await app.data('POST', '/ed-fi/studentSchoolAssociations', {
      body: { ...enrollmentDocument, studentReference: { studentUniqueId: 's0' }, primarySchool: true },
    });
  });
  afterAll(() => app.close());

  describe('GET by id', () => {
    it('answers the representation: id first, collections present, server fields last, quoted ETag', async () => {
      const response = await app.data('GET', `/ed-fi/students/${studentIds[0]}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const item = response.json<Item>();
      expect(Object.keys(item)).toEqual([
        'id',
        'birthDate',
        'firstName',
        'identificationDocuments',
        'lastSurname',
        'otherNames',
        'personalIdentificationDocuments',
        'studentUniqueId',
        'visas',
        '_etag',
        '_lastModifiedDate',
      ]);
      expect(item).toMatchObject({ id: studentIds[0], studentUniqueId: 's0', visas: [] });
      expect(response.headers.etag).toBe(`"${String(item._etag)}"`);
      expect(item._lastModifiedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?Z$/);
    });

    it('renders references with links to their targets', async () => {
      const [enrollment] = (await app.data('GET', '/ed-fi/studentSchoolAssociations')).json<Item[]>();
      expect(enrollment?.studentReference).toEqual({
        studentUniqueId: 's0',
        link: { rel: 'Student', href: `/ed-fi/students/${studentIds[0]}` },
      });
    });

    it('accepts any GUID spelling and any casing of the route', async () => {
      const id = studentIds[1]!;
      const hyphenated = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
      for (const path of [`/ed-fi/Students/${hyphenated.toUpperCase()}`, `/ED-FI/students/{${hyphenated}}/`]) {
        const response = await app.data('GET', path);
        expect(response.status, path).toBe(200);
        expect(response.json<Item>().id).toBe(id);
      }
    });

    it('answers 304 without a body when If-None-Match equals the unquoted etag, 200 for the quoted form', async () => {
      const path = `/ed-fi/students/${studentIds[2]}`;
      const { etag } = (await app.data('GET', path)).headers;
      const notModified = await app.data('GET', path, { headers: { 'if-none-match': etag!.slice(1, -1) } });
      expect(notModified.status).toBe(304);
      expect(notModified.body).toBe('');
      expect((await app.data('GET', path, { headers: { 'if-none-match': etag } })).status).toBe(200);
    });

    it('answers 404 for an unknown id, and the routing 404 for a non-GUID', async () => {
      expectProblem(await app.data('GET', `/ed-fi/students/${'2'.repeat(32)}`, { headers: WITH_CORRELATION }), {
        detail: 'The specified item could not be found.',
        type: 'urn:ed-fi:api:not-found',
        title: 'Not Found',
        status: 404,
      });
      expectProblem(
        await app.data('GET', '/ed-fi/students/abc', { headers: WITH_CORRELATION }),
        {
          detail: 'The specified data could not be found.',
          type: 'urn:ed-fi:api:not-found',
          title: 'Not Found',
          status: 404,
        },
        MIDDLEWARE_PROBLEM,
      );
    });

    it('answers the routing 404 for an unknown resource', async () => {
      for (const path of ['/ed-fi/nothings', '/ed-fi/nothings/abc', '/nowhere/students']) {
        expectProblem(
          await app.data('GET', path, { headers: WITH_CORRELATION }),
          {
            detail: 'The specified data could not be found.',
            type: 'urn:ed-fi:api:not-found',
            title: 'Not Found',
            status: 404,
          },
          MIDDLEWARE_PROBLEM,
        );
      }
    });
  });

  describe('GET list', () => {
    it('lists in insertion order with a Next-Page-Token, and [] without one past the end', async () => {
      const response = await app.data('GET', '/ed-fi/students');
      expect(response.status).toBe(200);
      expect(response.json<Item[]>().map((item) => item.id)).toEqual(studentIds);
      expect(response.headers['total-count']).toBeUndefined();
      expect(response.headers.etag).toBeUndefined();
      expect(decodePageToken(response.headers['next-page-token']!)).toBeDefined();
      const empty = await app.data('GET', '/ed-fi/students?offset=100');
      expect(empty.body).toBe('[]');
      expect(empty.headers['next-page-token']).toBeUndefined();
    });

    it('pages with limit and offset and counts with totalCount', async () => {
      const response = await app.data('GET', '/ed-fi/students?limit=2&offset=3&totalCount=true');
      expect(response.json<Item[]>().map((item) => item.id)).toEqual(studentIds.slice(3, 5));
      expect(response.headers['total-count']).toBe(String(STUDENT_COUNT));
      const none = await app.data('GET', '/ed-fi/students?limit=0&totalCount=true');
      expect(none.body).toBe('[]');
      expect(none.headers['total-count']).toBe(String(STUDENT_COUNT));
    });

    it('follows Next-Page-Token with pageToken and pageSize to the end', async () => {
      const seen: unknown[] = [];
      let response = await app.data('GET', '/ed-fi/students?limit=3');
      for (;;) {
        const items = response.json<Item[]>();
        seen.push(...items.map((item) => item.id));
        const token = response.headers['next-page-token'];
        if (token === undefined) break;
        response = await app.data('GET', `/ed-fi/students?pageToken=${token}&pageSize=3`);
      }
      expect(seen).toEqual(studentIds);
    });

    it('filters by example: names case-insensitive, values typed, unknown names and correlationId ignored', async () => {
      const odd = await app.data('GET', '/ed-fi/students?FIRSTNAME=Odd&unknownParameter=1&correlationId=x');
      expect(odd.json<Item[]>().map((item) => item.studentUniqueId)).toEqual(['s1', 's3', 's5']);
      const byId = await app.data('GET', `/ed-fi/students?id=${studentIds[4]!.toUpperCase()}`);
      expect(byId.json<Item[]>().map((item) => item.id)).toEqual([studentIds[4]]);
      const enrollments = await app.data(
        'GET',
        '/ed-fi/studentSchoolAssociations?schoolId=255901001&entryGradeLevelDescriptor=' +
          encodeURIComponent('uri://ed-fi.org/GradeLevelDescriptor#Ninth grade') +
          '&primarySchool=true&entryDate=2021-08-23',
      );
      expect(enrollments.json<Item[]>()).toHaveLength(1);
      const unknownDescriptor = await app.data(
        'GET',
        `/ed-fi/studentSchoolAssociations?entryGradeLevelDescriptor=${encodeURIComponent('uri://ed-fi.org/GradeLevelDescriptor#None')}`,
      );
      expect(unknownDescriptor.body).toBe('[]');
    });

    it('ignores default-valued criteria', async () => {
      const response = await app.data('GET', '/ed-fi/studentSchoolAssociations?primarySchool=false&schoolId=0');
      expect(response.json<Item[]>()).toHaveLength(1);
    });

    it('filters school years by year and ignores currentSchoolYear=false', async () => {
      const response = await app.data('GET', '/ed-fi/schoolYearTypes?schoolYear=2022&currentSchoolYear=false');
      expect(response.json<Item[]>()).toEqual([
        expect.objectContaining({ schoolYear: 2022, schoolYearDescription: '2021-2022', currentSchoolYear: false }),
      ]);
      const all = await app.data('GET', '/ed-fi/schoolYearTypes?totalCount=true&limit=0');
      expect(all.headers['total-count']).toBe(String(app.registry.schoolYears.length));
    });

    it('refuses a limit above 500', async () => {
      expectProblem(await app.data('GET', '/ed-fi/students?limit=1000', { headers: WITH_CORRELATION }), {
        detail: 'The request construction was invalid.',
        type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
        title: 'Parameter Validation Failed',
        status: 400,
        errors: ['Limit must be a value between 0 and 500.'],
      });
    });

    it('answers an undecodable page token with the parameter problem', async () => {
      expectProblem(await app.data('GET', '/ed-fi/students?pageToken=%25%25', { headers: WITH_CORRELATION }), {
        detail: 'The request construction was invalid.',
        type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
        title: 'Parameter Validation Failed',
        status: 400,
        errors: ['The page token provided was invalid.'],
      });
    });

    it('reports values that do not bind', async () => {
      expectProblem(await app.data('GET', '/ed-fi/students?offset=abc&id=invalid', { headers: WITH_CORRELATION }), {
        detail: "Data validation failed. See 'validationErrors' for details.",
        type: 'urn:ed-fi:api:bad-request:data-validation-failed',
        title: 'Data Validation Failed',
        status: 400,
        validationErrors: {
          '$.offset': ["The value 'abc' is not valid for Offset."],
          '$.id': ["The value 'invalid' is not valid for Id."],
        },
      });
    });
  });
});
