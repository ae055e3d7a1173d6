// Input an attacker with a valid token sends (issue 14, defects 2, 8 and 11): 400 never 500, nothing stored altered,
// forwarded headers not believed, BOMs accepted, OPTIONS and discovery as the README says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaDocument, schoolDocument, studentDocument } from '../support/documents.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

let app: EdFiTestServer;

beforeAll(async () => {
  app = await startEdFiServer();
});
afterAll(() => app.close());

const JSON_TYPE = { 'content-type': 'application/json' };

function post(path: string, body: string) {
  return app.data('POST', path, { body, headers: JSON_TYPE });
}

async function studentCount(): Promise<number> {
  const response = await app.data('GET', '/ed-fi/students?totalCount=true&limit=0');
  return Number(response.headers['total-count']);
}

describe('decimals beyond double or decimal range', () => {
  const enrollment = (fullTimeEquivalency: string) =>
    `{"studentReference":{"studentUniqueId":"604822"},"schoolReference":{"schoolId":255901001},` +
    `"entryDate":"2021-08-23","entryGradeLevelDescriptor":"uri://ed-fi.org/GradeLevelDescriptor#Ninth grade",` +
    `"fullTimeEquivalency":${fullTimeEquivalency}}`;

  it.each(['1e400', '-1e400', '"1e400"', '1e29', '"-8e28"'])('%s answers a 400 validation problem', async (value) => {
    const response = await post('/ed-fi/studentSchoolAssociations', enrollment(value));
    expect(response.status, response.body).toBe(400);
    const body = response.json<{ type: string; validationErrors?: Record<string, string[]> }>();
    expect(body.type).toBe('urn:ed-fi:api:bad-request:data-validation-failed');
    expect(Object.keys(body.validationErrors ?? {})).toEqual(['$.fullTimeEquivalency']);
  });

  it('still takes a decimal in exponent form within range', async () => {
    await app.data('POST', '/ed-fi/localEducationAgencies', { body: leaDocument });
    await app.data('POST', '/ed-fi/schools', { body: schoolDocument });
    await app.data('POST', '/ed-fi/students', { body: studentDocument });
    const response = await post('/ed-fi/studentSchoolAssociations', enrollment('5e-1'));
    expect(response.status, response.body).toBe(201);
    const stored = await app.data('GET', '/ed-fi/studentSchoolAssociations');
    expect(stored.json<{ fullTimeEquivalency: number }[]>().map((item) => item.fullTimeEquivalency)).toEqual([0.5]);
  });
});

describe('numbers sent for string identities', () => {
  const student = (id: string) =>
    `{"studentUniqueId":${id},"firstName":"A","lastSurname":"B","birthDate":"2010-01-01"}`;

  it.each(['1e400', '-1e400', '123456789012345678901234567890123', '1e21', '9007199254740993'])(
    '%s is refused, not stored as altered text',
    async (id) => {
      const before = await studentCount();
      const response = await post('/ed-fi/students', student(id));
      expect(response.status, response.body).toBe(400);
      expect(Object.keys(response.json<{ validationErrors: object }>().validationErrors)).toEqual([
        '$.studentUniqueId',
      ]);
      expect(await studentCount()).toBe(before);
    },
  );

  it('keeps a number whose text survives parsing', async () => {
    const response = await post('/ed-fi/students', student('604900'));
    expect(response.status, response.body).toBe(201);
    const list = await app.data('GET', '/ed-fi/students?studentUniqueId=604900');
    expect(list.json<{ studentUniqueId: string }[]>().map((item) => item.studentUniqueId)).toEqual(['604900']);
  });
});

describe('a body starting with a UTF-8 byte order mark', () => {
  it('is read without it, as the ODS does', async () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ ...studentDocument, studentUniqueId: 'bom-1' })),
    ]);
    const response = await app.data('POST', '/ed-fi/students', { body, headers: JSON_TYPE });
    expect(response.status, response.body).toBe(201);
  });
});

describe('OPTIONS', () => {
  it('answers a CORS preflight 401 on a data path (authentication comes first), and 405 with Allow to a caller', async () => {
    const preflight = {
      origin: 'https://browser.example',
      'access-control-request-method': 'POST',
      authorization: undefined,
    };
    const unauthenticated = await app.data('OPTIONS', '/ed-fi/students', { headers: preflight });
    expect(unauthenticated.status).toBe(401);
    const response = await app.data('OPTIONS', '/ed-fi/students');
    expect(response.status).toBe(405);
    expect(response.json<{ type: string }>().type).toBe('urn:ed-fi:api:method-not-allowed');
    expect(response.headers.allow).toBeDefined();
  });
});

describe('forwarded headers without --trust-proxy', () => {
  it('do not rewrite Location', async () => {
    const response = await app.data('POST', '/ed-fi/students', {
      body: { ...studentDocument, studentUniqueId: 'fwd-1' },
      headers: { host: 'api.local', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.location).toMatch(/^http:\/\/api\.local\/v7\.3\/api\/data\/v3\/ed-fi\/students\//);
  });
});

describe('discovery', () => {
  /** What a client appends to the URLs that are bases of other routes. */
  const probes: Record<string, string> = {
    dataManagementApi: 'ed-fi/students',
    changeQueries: 'availableChangeVersions',
  };

  it('advertises only URLs that answer', async () => {
    const discovery = await app.server.inject({ url: `${BASE_PATH}/`, headers: { host: 'api.local' } });
    const urls = Object.entries(discovery.json<{ urls: Record<string, string> }>().urls);
    expect(urls.map(([name]) => name)).toEqual([
      'dependencies',
      'openApiMetadata',
      'oauth',
      'oauthTokenIntrospection',
      'dataManagementApi',
      'xsdMetadata',
      'changeQueries',
      'composites',
      'apiDocumentation',
    ]);
    for (const [name, url] of urls) {
      const isToken = name === 'oauth' || name === 'oauthTokenIntrospection';
      const response = await app.server.inject({
        method: isToken ? 'POST' : 'GET',
        url: url.replace('http://api.local', '') + (probes[name] ?? ''),
        headers: { authorization: `Bearer ${app.token}` },
      });
      expect(response.status, url).not.toBe(404);
    }
  });
});
