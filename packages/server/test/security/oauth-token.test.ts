import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer, InjectRequest } from '@edfi-api/framework';
import { createClient } from '../../src/security/index.js';
import type { Store } from '../../src/store/store.js';
import { BASE, FORM, basic, form, memoryStore, securedServer } from './support.js';

const KEY = 'testClientKey';
const SECRET = 'a-test-secret-of-thirty-two-chars!';
const GRANT = { grant_type: 'client_credentials' };
const SCOPE_NOT_A_NUMBER =
  "The supplied 'scope' was not a number (it should be an EducationOrganizationId that is explicitly associated with the client).";
const SCOPE_NOT_ASSOCIATED =
  "The client is not explicitly associated with the EducationOrganizationId specified in the requested 'scope'.";

let store: Store;
let server: ApiServer;

beforeAll(async () => {
  store = await memoryStore();
  await createClient(store, { key: KEY, secret: SECRET, educationOrganizationIds: [255901] });
  await createClient(store, { key: 'inactive', secret: SECRET });
  await store.revokeClient('inactive');
  ({ server } = await securedServer(store));
});
afterAll(() => store.close());

function tokenRequest(request: Omit<InjectRequest, 'url'>) {
  return server.inject({ method: 'POST', url: `${BASE}/oauth/token`, ...request });
}

function postForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return tokenRequest({ headers: { ...FORM, ...headers }, body: form(fields) });
}

describe('POST /oauth/token success', () => {
  it('issues an opaque token from form fields, with no-store caching', async () => {
    const response = await postForm({ ...GRANT, client_id: KEY, client_secret: SECRET });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body)).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.access_token).toMatch(/^[0-9a-f]{32}$/);
    expect(body).toMatchObject({ expires_in: 1800, token_type: 'bearer' });
  });

  it('accepts a JSON body with field names in any case and a case-insensitive grant type', async () => {
    const response = await tokenRequest({
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ Client_Id: KEY, CLIENT_SECRET: SECRET, Grant_Type: 'Client_Credentials' }),
    });
    expect(response.status).toBe(200);
  });

  it('accepts Basic credentials with the grant type in the body', async () => {
    const response = await tokenRequest({
      headers: { authorization: basic(KEY, SECRET), 'content-type': 'application/json' },
      body: JSON.stringify(GRANT),
    });
    expect(response.status).toBe(200);
  });

  it('issues a new token on every call', async () => {
    const fields = { ...GRANT, client_id: KEY, client_secret: SECRET };
    const [first, second] = await Promise.all([postForm(fields), postForm(fields)]);
    expect(first!.json<{ access_token: string }>().access_token).not.toBe(
      second!.json<{ access_token: string }>().access_token,
    );
  });

  it('echoes a numeric scope, trimmed', async () => {
    const response = await postForm({ ...GRANT, client_id: KEY, client_secret: SECRET, scope: ' 255901 ' });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ scope: '255901' });
  });
});

describe('POST /oauth/token errors in the order of contract §2.3', () => {
  const valid = { ...GRANT, client_id: KEY, client_secret: SECRET };
  const cases: [row: string, send: () => ReturnType<typeof postForm>, status: number, body: object][] = [
    ['1: header not two parts', () => postForm(valid, { authorization: 'Basic' }), 400, { error: 'invalid_request' }],
    [
      '1: header with three parts',
      () => postForm(valid, { authorization: 'Basic a b' }),
      400,
      { error: 'invalid_request' },
    ],
    ['2: not Basic', () => postForm(valid, { authorization: 'Bearer abc' }), 401, { error: 'invalid_client' }],
    ['3: blank Basic value', () => postForm(valid, { authorization: 'Basic ' }), 400, { error: 'invalid_request' }],
    ['4: not base64', () => postForm(GRANT, { authorization: 'Basic !!!!' }), 400, { error: 'invalid_request' }],
    [
      '4: bad base64 length',
      () => postForm(GRANT, { authorization: 'Basic YWJj=' }),
      400,
      { error: 'invalid_request' },
    ],
    [
      '5: no colon',
      () => postForm(GRANT, { authorization: `Basic ${b64('nocolon')}` }),
      400,
      { error: 'invalid_client' },
    ],
    [
      '5: two colons',
      () => postForm(GRANT, { authorization: `Basic ${b64('a:b:c')}` }),
      400,
      { error: 'invalid_client' },
    ],
    [
      '6: header and body credentials',
      () => postForm({ ...GRANT, client_id: KEY }, { authorization: basic(KEY, SECRET) }),
      400,
      { error: 'invalid_client' },
    ],
    ['7: missing client_id', () => postForm({ ...GRANT, client_secret: SECRET }), 401, { error: 'invalid_request' }],
    [
      '7: blank client_secret',
      () => postForm({ ...GRANT, client_id: KEY, client_secret: ' ' }),
      401,
      { error: 'invalid_request' },
    ],
    [
      '7: blank header secret',
      () => postForm(GRANT, { authorization: basic(KEY, '') }),
      401,
      { error: 'invalid_request' },
    ],
    ['7: before grant type', () => postForm({}), 401, { error: 'invalid_request' }],
    [
      '8: missing grant_type',
      () => postForm({ client_id: KEY, client_secret: SECRET }),
      400,
      { error: 'unsupported_grant_type' },
    ],
    [
      '8: other grant_type',
      () => postForm({ grant_type: 'password', client_id: KEY, client_secret: SECRET }),
      400,
      { error: 'unsupported_grant_type' },
    ],
    [
      '8: before client check',
      () => postForm({ grant_type: 'x', client_id: 'unknown', client_secret: 'wrong' }),
      400,
      { error: 'unsupported_grant_type' },
    ],
    ['9: unknown key', () => postForm({ ...valid, client_id: 'unknown' }), 401, { error: 'invalid_client' }],
    ['9: wrong secret', () => postForm({ ...valid, client_secret: 'wrong' }), 401, { error: 'invalid_client' }],
    ['9: inactive client', () => postForm({ ...valid, client_id: 'inactive' }), 401, { error: 'invalid_client' }],
    [
      '9: before scope',
      () => postForm({ ...valid, client_secret: 'wrong', scope: 'x' }),
      401,
      { error: 'invalid_client' },
    ],
    ['10: scope not a number', () => postForm({ ...valid, scope: 'abc' }), 400, invalidScope()],
    ['10: scope beyond int32', () => postForm({ ...valid, scope: '2147483648' }), 400, invalidScope()],
    ['10: blank scope', () => postForm({ ...valid, scope: '  ' }), 400, invalidScope()],
    ['11: scope not associated', () => postForm({ ...valid, scope: '255902' }), 400, unassociatedScope()],
  ];

  it.each(cases)('row %s', async (_row, send, status, body) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.json()).toEqual(body);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('parses an int32 scope with a sign at the limits, then checks its association', async () => {
    expect((await postForm({ ...valid, scope: '-2147483648' })).json()).toEqual(unassociatedScope());
    expect((await postForm({ ...valid, scope: '+2147483647' })).json()).toEqual(unassociatedScope());
    expect((await postForm({ ...valid, scope: '+255901' })).status).toBe(200);
  });
});

describe('POST /oauth/token content types and methods', () => {
  it('answers 415 problem details when Content-Type is missing', async () => {
    const response = await tokenRequest({ body: form(GRANT), headers: { 'correlation-id': 'c-1' } });
    expect(response.status).toBe(415);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.json()).toEqual({
      detail: 'The request construction was invalid.',
      type: 'urn:ed-fi:api:unsupported-media-type',
      title: 'Unsupported Media Type',
      status: 415,
      correlationId: 'c-1',
      errors: ["The 'Content-Type' header is missing."],
    });
  });

  it('answers 415 problem details for another content type', async () => {
    const response = await tokenRequest({ headers: { 'content-type': 'text/plain' }, body: form(GRANT) });
    expect(response.status).toBe(415);
    expect(response.json()).toMatchObject({
      type: 'urn:ed-fi:api:unsupported-media-type',
      errors: ["The value specified in the 'Content-Type' header is not supported by this host."],
    });
  });

  it('answers invalid_request for a malformed JSON body', async () => {
    const response = await tokenRequest({ headers: { 'content-type': 'application/json' }, body: '{' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_request' });
  });

  it('answers 405 to other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const response = await server.inject({ method, url: `${BASE}/oauth/token` });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toContain('POST');
    }
  });
});

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function invalidScope() {
  return { error: 'invalid_scope', error_description: SCOPE_NOT_A_NUMBER };
}

function unassociatedScope() {
  return { error: 'invalid_scope', error_description: SCOPE_NOT_ASSOCIATED };
}
