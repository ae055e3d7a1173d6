// Every error row of the contract's §9.1 table with its exact body, the automatic use of a client's one assigned
// profile, and the admin API's profiles (a change there applies at once to this process's requests).
import type { ApiServer, InjectResponse } from '@edfi-api/framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdFiApp } from '../../src/http/app.js';
import { getModelRegistry } from '../../src/model/index.js';
import { seedNewStore } from '../../src/setup/first-start.js';
import { openStore, type Store } from '../../src/store/index.js';
import { leaDocument } from '../support/documents.js';
import { BASE_PATH, DATA_PATH, issueToken } from '../support/edfi-server.js';
import { expectProblem, MIDDLEWARE_PROBLEM, WITH_CORRELATION, type ExpectedProblem } from '../support/problems.js';
import {
  ADMIN,
  ADMIN_AUTH,
  assessment,
  idOf,
  importThroughAdmin,
  profileXml,
  readable,
  writable,
} from './profile-fixtures.js';

const USAGE = 'The request construction was invalid with respect to usage of a data policy.';
/** What the Titles profile shows of an assessment. */
const TITLES_READABLE = ['_etag', '_lastModifiedDate', 'assessmentIdentifier', 'assessmentTitle', 'id', 'namespace'];
const INVALID_USAGE = { type: 'urn:ed-fi:api:profile:invalid-profile-usage', title: 'Invalid Profile Usage' };

const PROFILES = `<Profiles>
  ${profileXml('Titles', 'Assessment', ['IncludeOnly', '<Property name="AssessmentTitle"/>'], ['ExcludeOnly', '<Property name="AssessmentFamily"/>'])}
  ${profileXml('Families', 'Assessment', ['IncludeOnly', '<Property name="AssessmentFamily"/>'], ['IncludeAll', ''])}
  ${profileXml('Read-Only', 'Assessment', ['IncludeAll', ''])}
  ${profileXml('Write-Only', 'Assessment', undefined, ['IncludeAll', ''])}
  ${profileXml('Students', 'Student', ['IncludeAll', ''])}
  ${profileXml('Broken', 'Assessment', ['IncludeOnly', '<Property name="NoSuchThing"/>'])}
</Profiles>`;

let store: Store;
let app: ApiServer;
let token: string;
let assessmentId: string;

function data(method: string, path: string, headers: Record<string, string>, body?: unknown, bearer = token) {
  return app.inject({
    method,
    url: `${DATA_PATH}${path}`,
    headers: { authorization: `Bearer ${bearer}`, ...WITH_CORRELATION, ...headers },
    body,
  });
}

const tokenFor = (application: string, profiles: string[]) =>
  issueToken(app, store, {
    vendor: application,
    application,
    claimSet: 'Ed-Fi Sandbox',
    namespacePrefixes: ['uri://ed-fi.org'],
    profiles,
  });

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  await seedNewStore(store, getModelRegistry(), 'descriptors');
  app = await createEdFiApp({ store, logger: { info() {}, warn() {}, error: console.error }, admin: ADMIN });
  const imported = await importThroughAdmin(app, PROFILES);
  expect(imported.status, imported.body).toBe(201);
  token = await tokenFor('Unassigned', []);
  expect((await data('POST', '/ed-fi/localEducationAgencies', {}, leaDocument)).status).toBe(201);
  const created = await data('POST', '/ed-fi/assessments', {}, assessment('A-1'));
  expect(created.status, created.body).toBe(201);
  assessmentId = idOf(created.headers.location);
});
afterAll(() => store.close());

interface ErrorRow {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path?: string;
  readonly header: string;
  readonly status: number;
  readonly problem: Omit<ExpectedProblem, 'status' | 'detail'> & { detail?: string };
  readonly contentType?: string;
}

const usage = (error: string, status = 400): Pick<ErrorRow, 'status' | 'problem'> => ({
  status,
  problem: { ...INVALID_USAGE, errors: [error] },
});

const ERROR_ROWS: readonly ErrorRow[] = [
  {
    name: 'malformed Accept (not 3 facets)',
    method: 'GET',
    header: 'application/vnd.ed-fi.assessment.titles+json',
    ...usage("The format of the profile-based 'Accept' header was invalid."),
  },
  {
    name: 'malformed Content-Type',
    method: 'POST',
    header: 'application/vnd.ed-fi.assessment.titles.writable.extra+json',
    ...usage("The format of the profile-based 'Content-Type' header was invalid."),
  },
  {
    name: 'unrecognised usage facet',
    method: 'POST',
    header: 'application/vnd.ed-fi.assessment.titles.changeable+json',
    ...usage("The profile usage segment in the profile-based 'Content-Type' header was not recognized."),
  },
  {
    name: 'writable on GET',
    method: 'GET',
    header: writable('assessment', 'titles'),
    ...usage('A profile-based content type that is writable cannot be used with GET requests.'),
  },
  ...(['POST', 'PUT'] as const).map((method) => ({
    name: `readable on ${method}`,
    method,
    header: readable('assessment', 'titles'),
    ...usage(`A profile-based content type that is readable cannot be used with ${method} requests.`),
  })),
  {
    name: 'a profile that failed validation',
    method: 'GET',
    header: readable('assessment', 'broken'),
    ...usage("The profile specified by the content type in the 'Accept' header is configured but invalid.", 406),
  },
  {
    name: 'an unknown profile on GET',
    method: 'GET',
    header: readable('assessment', 'nobody'),
    ...usage("The profile specified by the content type in the 'Accept' header is not supported by this host.", 406),
  },
  {
    name: 'an unknown profile on POST',
    method: 'POST',
    header: writable('assessment', 'nobody'),
    ...usage(
      "The profile specified by the content type in the 'Content-Type' header is not supported by this host.",
      415,
    ),
  },
  {
    name: 'a resource the profile does not cover',
    method: 'GET',
    header: readable('assessment', 'students'),
    status: 400,
    problem: {
      ...INVALID_USAGE,
      detail: `${USAGE} The resource is not contained by the profile used by (or applied to) the request.`,
      errors: ["Resource 'Assessment' is not accessible through the 'Students' profile specified by the content type."],
    },
    contentType: 'application/json; charset=utf-8',
  },
  {
    name: 'a media-type resource other than the URL resource',
    method: 'GET',
    header: readable('school', 'titles'),
    ...usage(
      "The resource specified by the profile-based content type ('school') does not match the requested resource ('Assessment').",
    ),
  },
  {
    name: 'no read content',
    method: 'GET',
    header: readable('assessment', 'write-only'),
    status: 405,
    problem: {
      type: 'urn:ed-fi:api:profile:method-usage',
      title: 'Method Not Allowed with Profile',
      detail: `${USAGE} An attempt was made to access a resource that is not readable using the profile.`,
      errors: ["Resource class 'Assessment' is not readable using API profile 'Write-Only'."],
    },
    contentType: 'application/json; charset=utf-8',
  },
  {
    name: 'no write content',
    method: 'PUT',
    header: writable('assessment', 'read-only'),
    status: 405,
    problem: {
      type: 'urn:ed-fi:api:profile:method-usage',
      title: 'Method Not Allowed with Profile',
      detail: `${USAGE} An attempt was made to access a resource that is not writable using the profile.`,
      errors: ["Resource class 'Assessment' is not writable using API profile 'Read-Only'."],
    },
    contentType: 'application/json; charset=utf-8',
  },
];

describe('profile usage errors (contract §9.1)', () => {
  it.each(ERROR_ROWS)('$name: $status', async (row) => {
    const path = row.method === 'PUT' ? `/ed-fi/assessments/${assessmentId}` : '/ed-fi/assessments';
    const header: Record<string, string> = { [row.method === 'GET' ? 'accept' : 'content-type']: row.header };
    const response = await data(row.method, path, header, row.method === 'GET' ? undefined : assessment('A-1'));
    expectProblem(
      response,
      { detail: USAGE, ...row.problem, status: row.status },
      row.contentType ?? MIDDLEWARE_PROBLEM,
    );
  });
});

describe('assigned profiles', () => {
  const several =
    "'application/vnd.ed-fi.assessment.families.readable+json', 'application/vnd.ed-fi.assessment.titles.readable+json'";

  it('several covering the resource and none named: 403 listing them (reads and writes)', async () => {
    const bearer = await tokenFor('Two-Profiles', ['Titles', 'Families', 'Students']);
    const read = await data('GET', '/ed-fi/assessments', {}, undefined, bearer);
    const problem = {
      type: 'urn:ed-fi:api:security:data-policy:incorrect-usage',
      title: 'Data Policy Failure Due to Incorrect Usage',
      status: 403,
    };
    expectProblem(read, {
      ...problem,
      detail: `Based on profile assignments, one of the following profile-specific content types is required when requesting this resource: ${several}`,
    });
    const write = await data(
      'PUT',
      `/ed-fi/assessments/${assessmentId}`,
      { 'content-type': 'application/json' },
      assessment('A-1'),
      bearer,
    );
    expectProblem(write, {
      ...problem,
      detail: `Based on profile assignments, one of the following profile-specific content types is required when creating or updating this resource: ${several.replace(/readable/g, 'writable')}`,
    });
    const named = await data(
      'GET',
      `/ed-fi/assessments/${assessmentId}`,
      { accept: readable('assessment', 'families') },
      undefined,
      bearer,
    );
    expect(named.status).toBe(200);
    expect(Object.keys(named.json<object>()).sort()).toEqual([
      '_etag',
      '_lastModifiedDate',
      'assessmentFamily',
      'assessmentIdentifier',
      'id',
      'namespace',
    ]);
  });

  it('one assigned profile naming another one: 403 in the singular', async () => {
    const bearer = await tokenFor('One-Profile', ['Titles']);
    const response = await data(
      'GET',
      '/ed-fi/assessments',
      { accept: readable('assessment', 'families') },
      undefined,
      bearer,
    );
    expectProblem(response, {
      type: 'urn:ed-fi:api:security:data-policy:incorrect-usage',
      title: 'Data Policy Failure Due to Incorrect Usage',
      status: 403,
      detail:
        "Based on profile assignments, the following profile-specific content type is required when requesting this resource: 'application/vnd.ed-fi.assessment.titles.readable+json'",
    });
  });

  it('exactly one covering the resource is applied to plain JSON reads and writes', async () => {
    const bearer = await tokenFor('One-Profile', ['Titles']);
    const read = await data('GET', `/ed-fi/assessments/${assessmentId}`, {}, undefined, bearer);
    expect(read.headers['content-type']).toBe('application/vnd.ed-fi.assessment.titles.readable+json; charset=utf-8');
    expect(Object.keys(read.json<object>()).sort()).toEqual(TITLES_READABLE);
    const body = { ...assessment('A-1'), assessmentTitle: 'Retitled', assessmentFamily: 'Ignored' };
    const write = await data(
      'PUT',
      `/ed-fi/assessments/${assessmentId}`,
      { 'content-type': 'application/json' },
      body,
      bearer,
    );
    expect(write.status, write.body).toBe(204);
    const stored = (await data('GET', `/ed-fi/assessments/${assessmentId}`, {})).json<Record<string, unknown>>();
    expect([stored.assessmentTitle, stored.assessmentFamily]).toEqual(['Retitled', 'Family']);
  });

  it('assigned profiles that do not cover the resource change nothing', async () => {
    const bearer = await tokenFor('Student-Profile', ['Students']);
    const read = await data('GET', `/ed-fi/assessments/${assessmentId}`, {}, undefined, bearer);
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.json<Record<string, unknown>>().assessmentFamily).toBe('Family');
  });
});

describe('profile metadata (contract §1.4)', () => {
  const get = (path: string) => app.inject({ method: 'GET', url: `${BASE_PATH}${path}` });
  const root = 'http://localhost/v7.3/api';

  it('lists one OpenAPI document per valid profile', async () => {
    const index = (await get('/metadata')).json<{ name: string; endpointUri: string; prefix: string }[]>();
    expect(index.filter((section) => section.prefix === 'Profiles')).toEqual(
      ['Families', 'Read-Only', 'Students', 'Titles', 'Write-Only'].map((name) => ({
        name,
        endpointUri: `${root}/metadata/data/v3/profiles/${name}/swagger.json`,
        prefix: 'Profiles',
      })),
    );
    const firstProfile = index.findIndex((section) => section.prefix === 'Profiles');
    expect(index.slice(firstProfile).every((section) => section.prefix === 'Profiles')).toBe(true);
    expect(index.slice(0, firstProfile).map((section) => section.name)).toEqual(
      expect.arrayContaining(['Descriptors', 'Resources']),
    );
    expect((await get('/metadata/data/v3/profiles/Broken/swagger.json')).status).toBe(404);
  });

  it("describes the covered resources' readable and writable schemas under the profile media types", async () => {
    const response = await get('/metadata/data/v3/profiles/Titles/swagger.json');
    expect(response.status).toBe(200);
    interface Schema {
      properties: Record<string, unknown>;
    }
    const document = response.json<{
      paths: Record<string, Record<string, { responses?: object; requestBody?: object }>>;
      components: { schemas: Record<string, Schema> };
    }>();
    expect(Object.keys(document.paths).sort()).toEqual(['/ed-fi/assessments', '/ed-fi/assessments/{id}']);
    expect(Object.keys(document.paths['/ed-fi/assessments']!).sort()).toEqual(['get', 'post']);
    expect(JSON.stringify(document.paths['/ed-fi/assessments']!.get)).toContain(readable('assessment', 'titles'));
    expect(JSON.stringify(document.paths['/ed-fi/assessments']!.post)).toContain(writable('assessment', 'titles'));
    const { schemas } = document.components;
    expect(Object.keys(schemas.edFi_assessment_Readable!.properties).sort()).toEqual(TITLES_READABLE);
    const writableMembers = Object.keys(schemas.edFi_assessment_Writable!.properties);
    expect(writableMembers).toContain('assessmentTitle');
    expect(writableMembers).not.toContain('assessmentFamily');
    expect(JSON.stringify(document.paths)).not.toMatch(/#\/components\/schemas\/[^"]*(?<!_Readable|_Writable)"/);
  });
});

describe('admin API profiles', () => {
  const admin = (method: string, path: string, body?: string): Promise<InjectResponse> =>
    app.inject({
      method,
      url: `${BASE_PATH}/admin/profiles${path}`,
      headers: {
        ...ADMIN_AUTH,
        ...WITH_CORRELATION,
        ...(body === undefined ? {} : { 'content-type': 'application/xml' }),
      },
      body,
    });

  it('lists, exports, refuses an invalid definition with the reason, and deletes with immediate effect', async () => {
    const listed = await admin('GET', '');
    expect(listed.status).toBe(200);
    const summaries = listed.json<{ name: string; problems: string[] }[]>();
    expect(summaries.map((summary) => summary.name)).toEqual([
      'Broken',
      'Families',
      'Read-Only',
      'Students',
      'Titles',
      'Write-Only',
    ]);
    expect(summaries[0]!.problems).toEqual([
      "Resource 'Assessment' (read): property 'NoSuchThing' is not a member of resource 'Assessment'.",
    ]);
    const exported = await admin('GET', '/titles');
    expect(exported.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(exported.body).toContain('<Profile name="Titles">');

    const refused = await admin('POST', '', '<Profiles><Profile name="X" /></Profiles>');
    expectProblem(refused, {
      type: 'urn:ed-fi:api:bad-request',
      title: 'Bad Request',
      status: 400,
      detail: "The request could not be processed. See 'errors' for details.",
      errors: ["Line 1: element 'Profile' must contain a 'Resource' element."],
    });

    const bearer = await tokenFor('Read-Only-App', ['Read-Only']);
    expect(
      (await data('GET', `/ed-fi/assessments/${assessmentId}`, {}, undefined, bearer)).headers['content-type'],
    ).toContain('read-only');
    expect((await admin('DELETE', '/READ-ONLY')).status).toBe(204);
    expect(
      (await data('GET', `/ed-fi/assessments/${assessmentId}`, {}, undefined, bearer)).headers['content-type'],
    ).toBe('application/json; charset=utf-8');
    expect((await admin('DELETE', '/Read-Only')).status).toBe(404);
  });
});
