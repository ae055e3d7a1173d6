// The admin API: off unless configured, Basic-authenticated with the admin credential, creating, listing and revoking
// clients; a revocation stops the client's tokens at once in this process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer, InjectResponse } from '@edfi-api/framework';
import { createEdFiApp } from '../../../src/http/app.js';
import type { ClientSummary, CreatedClient } from '../../../src/security/index.js';
import { openStore, type Store } from '../../../src/store/index.js';

const BASE = '/v7.3/api';
const ADMIN = { key: 'admin', secret: 'an-admin-secret-that-is-long-enough' };
const silent = { info() {}, warn() {}, error() {} };

const basic = (key: string, secret: string): string => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const AUTHORIZED = { authorization: basic(ADMIN.key, ADMIN.secret) };

/** The client the POST test creates, as the API describes it. */
const SIS_CLIENT = {
  key: 'sisKey',
  name: 'Grand Bend SIS',
  vendor: 'Grand Bend',
  application: 'SIS',
  claimSet: 'SIS Vendor',
  educationOrganizationIds: [255901],
  namespacePrefixes: ['uri://gbisd.edu'],
  profiles: [],
};

let store: Store;
let app: ApiServer;

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  app = await createEdFiApp({ store, logger: silent, admin: ADMIN });
});
afterAll(() => store.close());

function admin(method: string, path = '', body?: unknown, headers: Record<string, string> = AUTHORIZED) {
  return app.inject({
    method,
    url: `${BASE}/admin/clients${path}`,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: typeof body === 'string' || body === undefined ? body : JSON.stringify(body),
  });
}

async function token(key: string, secret: string): Promise<InjectResponse> {
  return app.inject({
    method: 'POST',
    url: `${BASE}/oauth/token`,
    headers: { 'content-type': 'application/json' },
    body: { grant_type: 'client_credentials', client_id: key, client_secret: secret },
  });
}

describe('the admin API switch', () => {
  it('is off unless an admin credential is configured', async () => {
    const other = await openStore('sqlite::memory:');
    try {
      const plain = await createEdFiApp({ store: other, logger: silent });
      const response = await plain.inject({ url: `${BASE}/admin/clients`, headers: AUTHORIZED });
      expect(response.status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['no credentials', {}],
    ['a wrong secret', { authorization: basic(ADMIN.key, 'wrong') }],
    ['a wrong key', { authorization: basic('root', ADMIN.secret) }],
    ['a bearer token', { authorization: `Bearer ${'0'.repeat(32)}` }],
  ])('answers 401 with an empty body to %s', async (_case, headers) => {
    for (const response of [await admin('GET', '', undefined, headers), await admin('POST', '', {}, headers)]) {
      expect(response.status).toBe(401);
      expect(response.body).toBe('');
    }
    expect(await store.listClients()).toEqual([]);
  });
});

describe('POST {base}/admin/clients', () => {
  it('creates a client and answers its credentials once, with its application', async () => {
    const response = await admin('POST', '', { ...SIS_CLIENT, secret: 'short', profiles: null });
    expect(response.status).toBe(201);
    expect(response.json()).toEqual({
      ...SIS_CLIENT,
      secret: 'short',
      warnings: [expect.stringContaining('The secret has 5 characters')],
    });
    expect((await token('sisKey', 'short')).status).toBe(200);
  });

  it('generates the credentials when none are given', async () => {
    const created = (await admin('POST', '', { claimSet: 'Roster Vendor' })).json<CreatedClient>();
    expect(created.key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(created.secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect((await token(created.key, created.secret)).status).toBe(200);
  });

  it.each([
    [
      'unknown and mistyped properties',
      { claimset: 'SIS Vendor', educationOrganizationIds: ['255901'], key: 7 },
      [
        "Unknown property 'claimset'.",
        "'educationOrganizationIds' must be an array of whole numbers.",
        "'key' must be a string.",
      ],
    ],
    ['a body that is not an object', [], ['The body must be a JSON object.']],
    [
      'an unknown claim set',
      { claimSet: 'Superuser' },
      [expect.stringMatching(/^Unknown claim set 'Superuser'\. Valid claim sets: AB Connect, /)],
    ],
    ['a key with a colon', { key: 'a:b' }, ["The client key must not contain ':'."]],
  ])('answers 400 to %s', async (_case, body, errors) => {
    const response = await admin('POST', '', body);
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ type: 'urn:ed-fi:api:bad-request', status: 400, errors });
  });

  it('answers 400 to malformed JSON and 409 to a key that exists', async () => {
    expect((await admin('POST', '', '{')).status).toBe(400);
    await admin('POST', '', { key: 'taken' });
    const duplicate = await admin('POST', '', { key: 'taken' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json()).toMatchObject({
      type: 'urn:ed-fi:api:data-conflict:non-unique-identity',
      errors: ["A client with the key 'taken' already exists."],
    });
  });
});

describe('GET and DELETE {base}/admin/clients', () => {
  it('lists the clients without secrets, with their ownership tokens', async () => {
    const owned = { key: 'ownedKey', ownershipToken: 'District', accessOwnershipTokens: ['State', 'Audit'] };
    expect((await admin('POST', '', owned)).status).toBe(201);
    const response = await admin('GET');
    expect(response.status).toBe(200);
    const clients = response.json<ClientSummary[]>();
    expect(clients.find((client) => client.key === 'sisKey')).toEqual({
      ...SIS_CLIENT,
      active: true,
      liveTokens: 1,
      createdAt: expect.any(String),
      ownershipToken: expect.stringMatching(/^application \d+$/),
      accessOwnershipTokens: [],
    });
    expect(clients.find((client) => client.key === 'ownedKey')).toMatchObject({
      ownershipToken: 'District',
      accessOwnershipTokens: ['Audit', 'State'],
    });
    expect(response.body).not.toContain('secret');
  });

  it('revokes a client: its cached token stops working at once, and it gets no new token', async () => {
    const secret = 'a-client-secret-that-is-long-enough-00';
    await admin('POST', '', { key: 'revoked key', secret });
    const accessToken = (await token('revoked key', secret)).json<{ access_token: string }>().access_token;
    const read = () =>
      app.inject({
        url: `${BASE}/data/v3/ed-fi/schoolYearTypes`,
        headers: { authorization: `Bearer ${accessToken}` },
      });
    expect((await read()).status).toBe(200);
    const response = await admin('DELETE', `/${encodeURIComponent('revoked key')}`);
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    const refused = await read();
    expect(refused.status).toBe(401);
    expect(refused.json()).toMatchObject({ errors: ['Invalid token'] });
    expect((await token('revoked key', secret)).status).toBe(401);
    const listed = (await admin('GET')).json<ClientSummary[]>().find((client) => client.key === 'revoked key');
    expect(listed).toMatchObject({ active: false, liveTokens: 0 });
  });

  it('answers 404 to an unknown key', async () => {
    const response = await admin('DELETE', '/nobody');
    expect(response.status).toBe(404);
    expect(response.json()).toMatchObject({ type: 'urn:ed-fi:api:not-found', errors: ['No client has this key.'] });
  });
});
