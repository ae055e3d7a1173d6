// Change queries through HTTP (contract §4.2–§4.5): the available versions, lists bounded by change version, and the
// exact `/deletes` and `/keyChanges` entries, parameters and problems.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { expectProblem, MIDDLEWARE_PROBLEM, WITH_CORRELATION } from '../support/problems.js';
import { classPeriod, student } from '../store/sample-documents.js';
import { idOf, postSectionWithStudents, SCHOOL_ID } from './support.js';

type Item = Record<string, unknown>;

const gradingPeriod = {
  beginDate: '2021-08-23',
  endDate: '2021-10-01',
  gradingPeriodDescriptor: 'uri://ed-fi.org/GradingPeriodDescriptor#First Six Weeks',
  gradingPeriodName: 'GP1',
  schoolReference: { schoolId: SCHOOL_ID },
  schoolYearTypeReference: { schoolYear: 2022 },
  totalInstructionalDays: 30,
};

describeEachStore('change queries', (stores) => {
  let app: EdFiTestServer;

  beforeEach(async () => {
    app = await startEdFiServer({ store: await stores.newSpec() });
  });
  afterEach(() => app.close());

  async function newest(): Promise<number> {
    const response = await app.server.inject({
      method: 'GET',
      url: `${BASE_PATH}/changeQueries/v1/availableChangeVersions`,
      headers: { authorization: `Bearer ${app.token}` },
    });
    return response.json<{ newestChangeVersion: number }>().newestChangeVersion;
  }

  describe('GET changeQueries/v1/availableChangeVersions', () => {
    it('answers the oldest (always 0) and the newest version handed out', async () => {
      const before = await newest();
      await app.data('POST', '/ed-fi/students', { body: student('s1') });
      const response = await app.server.inject({
        method: 'GET',
        url: `${BASE_PATH}/changequeries/v1/availableChangeVersions`,
        headers: { authorization: `Bearer ${app.token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe(JSON.stringify({ oldestChangeVersion: 0, newestChangeVersion: before + 1 }));
    });

    it('requires a bearer token, answering the data routes’ 401 problem', async () => {
      const response = await app.server.inject({
        method: 'GET',
        url: `${BASE_PATH}/changeQueries/v1/availableChangeVersions`,
        headers: WITH_CORRELATION,
      });
      expectProblem(
        response,
        {
          detail: 'The caller could not be authenticated.',
          type: 'urn:ed-fi:api:security:authentication',
          title: 'Authentication Failed',
          status: 401,
          errors: ['Authorization header is missing.'],
        },
        MIDDLEWARE_PROBLEM,
      );
    });
  });

  describe('lists bounded by change version', () => {
    it('return the items whose current version lies in the inclusive window', async () => {
      const start = (await newest()) + 1;
      const ids = [];
      for (const name of ['a', 'b', 'c'])
        ids.push(idOf(await app.data('POST', '/ed-fi/students', { body: student(name) })));
      await app.data('PUT', `/ed-fi/students/${ids[0]}`, { body: student('a', 'Grace') });
      const listed = async (query: string) =>
        (await app.data('GET', `/ed-fi/students?${query}`)).json<Item[]>().map((item) => item.id);
      expect(await listed(`minChangeVersion=${start}`)).toEqual(ids);
      expect(await listed(`minChangeVersion=${start + 1}&maxChangeVersion=${start + 2}`)).toEqual([ids[1], ids[2]]);
      expect(await listed(`minChangeVersion=${start + 3}`)).toEqual([ids[0]]);
      expect(await listed(`maxChangeVersion=${start - 1}`)).toEqual([]);
      const counted = await app.data('GET', `/ed-fi/students?minChangeVersion=${start + 1}&totalCount=true&limit=0`);
      expect(counted.headers['total-count']).toBe('3');
    });

    it('report bounds that are not int64 numbers as binding failures', async () => {
      expectProblem(
        await app.data('GET', '/ed-fi/students?minChangeVersion=abc&maxChangeVersion=1.5', {
          headers: WITH_CORRELATION,
        }),
        {
          detail: "Data validation failed. See 'validationErrors' for details.",
          type: 'urn:ed-fi:api:bad-request:data-validation-failed',
          title: 'Data Validation Failed',
          status: 400,
          validationErrors: {
            '$.minChangeVersion': ["The value 'abc' is not valid for MinChangeVersion."],
            '$.maxChangeVersion': ["The value '1.5' is not valid for MaxChangeVersion."],
          },
        },
      );
    });
  });

  describe('GET {resource}/deletes', () => {
    it('answers compact application/json entries: id, changeVersion and the key at deletion', async () => {
      await app.data('POST', '/ed-fi/schools', {
        body: {
          schoolId: SCHOOL_ID,
          nameOfInstitution: 'Grand Bend High School',
          educationOrganizationCategories: [
            {
              educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School',
            },
          ],
          gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
        },
      });
      const id = idOf(await app.data('POST', '/ed-fi/gradingPeriods', { body: gradingPeriod }));
      expect((await app.data('DELETE', `/ed-fi/gradingPeriods/${id}`)).status).toBe(204);
      const response = await app.data('GET', '/ed-fi/gradingPeriods/deletes');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.body).toBe(
        JSON.stringify([
          {
            id,
            changeVersion: await newest(),
            keyValues: {
              gradingPeriodDescriptor: 'uri://ed-fi.org/GradingPeriodDescriptor#First Six Weeks',
              gradingPeriodName: 'GP1',
              schoolId: SCHOOL_ID,
              schoolYear: 2022,
            },
          },
        ]),
      );
    });

    it('hides items re-created since, pages with offset and limit, and counts with totalCount', async () => {
      const ids = [];
      for (const name of ['a', 'b', 'c', 'd'])
        ids.push(idOf(await app.data('POST', '/ed-fi/students', { body: student(name) })));
      for (const id of ids) await app.data('DELETE', `/ed-fi/students/${id}`);
      await app.data('POST', '/ed-fi/students', { body: student('c') });
      const all = await app.data('GET', '/ed-fi/students/deletes?totalCount=true');
      expect(all.json<Item[]>().map((item) => item.id)).toEqual([ids[0], ids[1], ids[3]]);
      expect(all.headers['total-count']).toBe('3');
      const page = await app.data('GET', '/ed-fi/students/deletes?offset=1&limit=1');
      expect(page.json<Item[]>().map((item) => item.keyValues)).toEqual([{ studentUniqueId: 'b' }]);
      expect(page.headers['total-count']).toBeUndefined();
      expect((await app.data('GET', '/ed-fi/students/deletes?limit=0')).body).toBe('[]');
      const [, second] = all.json<{ changeVersion: number }[]>();
      const windowed = await app.data(
        'GET',
        `/ed-fi/students/deletes?minChangeVersion=${second!.changeVersion}&maxChangeVersion=${second!.changeVersion}`,
      );
      expect(windowed.json<Item[]>().map((item) => item.id)).toEqual([ids[1]]);
    });

    it('reports a subclass’s own deletions only, and descriptors by code value and namespace', async () => {
      const schoolId = idOf(
        await app.data('POST', '/ed-fi/schools', {
          body: {
            schoolId: 1,
            nameOfInstitution: 'One',
            educationOrganizationCategories: [
              {
                educationOrganizationCategoryDescriptor:
                  'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School',
              },
            ],
            gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
          },
        }),
      );
      await app.data('DELETE', `/ed-fi/schools/${schoolId}`);
      expect((await app.data('GET', '/ed-fi/localEducationAgencies/deletes')).body).toBe('[]');
      expect((await app.data('GET', '/ed-fi/schools/deletes')).json<Item[]>()).toHaveLength(1);
      const descriptor = idOf(
        await app.data('POST', '/ed-fi/sexDescriptors', {
          body: { codeValue: 'Other', namespace: 'uri://example.org/SexDescriptor', shortDescription: 'Other' },
        }),
      );
      await app.data('DELETE', `/ed-fi/sexDescriptors/${descriptor}`);
      expect((await app.data('GET', '/ed-fi/sexDescriptors/deletes')).json<Item[]>()[0]!.keyValues).toEqual({
        codeValue: 'Other',
        namespace: 'uri://example.org/SexDescriptor',
      });
    });

    it('refuses a limit outside 0..500 and a negative offset with the change-query messages', async () => {
      const invalid = (errors: string[]) => ({
        detail: 'Parameters supplied to the request were invalid.',
        type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
        title: 'Parameter Validation Failed',
        status: 400,
        errors,
      });
      for (const feed of ['deletes', 'keyChanges']) {
        const get = (query: string) =>
          app.data('GET', `/ed-fi/students/${feed}?${query}`, { headers: WITH_CORRELATION });
        expectProblem(await get('limit=501'), invalid(['Limit must be omitted or set to a value between 1 and 500.']));
        expectProblem(await get('limit=-1'), invalid(['Limit must be omitted or set to a value between 1 and 500.']));
        expectProblem(await get('offset=-1'), invalid(['Offset must be greater than or equal to 0.']));
        expectProblem(
          await get('offset=-1&limit=600'),
          invalid([
            'Limit must be omitted or set to a value between 1 and 500.',
            'Offset must be greater than or equal to 0.',
          ]),
        );
        expectProblem(await get('offset=x&minChangeVersion=y'), {
          detail: "Data validation failed. See 'validationErrors' for details.",
          type: 'urn:ed-fi:api:bad-request:data-validation-failed',
          title: 'Data Validation Failed',
          status: 400,
          validationErrors: {
            '$.offset': ["The value 'x' is not valid for Offset."],
            '$.minChangeVersion': ["The value 'y' is not valid for MinChangeVersion."],
          },
        });
      }
    });

    it('answers 404 for an unknown resource and for the school-year enumeration, which has no change tracking', async () => {
      for (const path of [
        '/ed-fi/nothings/deletes',
        '/ed-fi/schoolYearTypes/deletes',
        '/ed-fi/schoolYearTypes/keyChanges',
      ]) {
        expectProblem(await app.data('GET', path, { headers: WITH_CORRELATION }), {
          detail: 'The specified data could not be found.',
          type: 'urn:ed-fi:api:not-found',
          title: 'Not Found',
          status: 404,
        });
      }
    });
  });

  describe('GET {resource}/keyChanges', () => {
    it('answers merged entries with old and new keys, cascaded ones included', async () => {
      const chain = await postSectionWithStudents(app);
      const start = (await newest()) + 1;
      for (const name of ['P2', 'P3']) {
        const response = await app.data('PUT', `/ed-fi/classPeriods/${chain.period}`, {
          body: classPeriod(name, SCHOOL_ID),
        });
        expect(response.status).toBe(204);
      }
      const response = await app.data(
        'GET',
        `/ed-fi/classPeriods/keyChanges?minChangeVersion=${start}&totalCount=true`,
      );
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers['total-count']).toBe('1');
      const [entry] = response.json<{ changeVersion: number }[]>();
      expect(response.body).toBe(
        JSON.stringify([
          {
            id: chain.period,
            changeVersion: entry!.changeVersion,
            oldKeyValues: { classPeriodName: 'P1', schoolId: SCHOOL_ID },
            newKeyValues: { classPeriodName: 'P3', schoolId: SCHOOL_ID },
          },
        ]),
      );
      expect(entry!.changeVersion).toBeGreaterThan(start);
      expect(entry!.changeVersion).toBeLessThanOrEqual(await newest());
      // A resource that never changes identity has none.
      expect((await app.data('GET', '/ed-fi/students/keyChanges')).body).toBe('[]');
    });
  });
});
