// The admin API's claim sets (import, list, export, delete) and client updates, which reach the updated
// application's live tokens at once in this process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import { createEdFiApp } from '../../../src/http/app.js';
import { openStore, type Store } from '../../../src/store/index.js';

const BASE = '/v7.3/api';
const ADMIN = { key: 'admin', secret: 'an-admin-secret-that-is-long-enough' };
const AUTHORIZED = { authorization: `Basic ${Buffer.from(`${ADMIN.key}:${ADMIN.secret}`).toString('base64')}` };
const silent = { info() {}, warn() {}, error() {} };
const SECRET = 'a-vendor-secret-that-is-long-enough-000';

const campusReader = {
  name: 'Campus Reader',
  resourceClaims: [
    {
      name: 'http://ed-fi.org/ods/identity/claims/domains/educationOrganizations',
      actions: [{ name: 'Read', authorizationStrategyOverrides: [] }],
    },
  ],
};

let store: Store;
let app: ApiServer;

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  app = await createEdFiApp({ store, logger: silent, admin: ADMIN, tokenCacheTtlSeconds: 3600 });
});
afterAll(() => store.close());

function admin(method: string, path: string, body?: unknown) {
  return app.inject({
    method,
    url: `${BASE}/admin/${path}`,
    headers: { ...AUTHORIZED, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function schoolsStatus(token: string): Promise<number> {
  const response = await app.inject({
    url: `${BASE}/data/v3/ed-fi/schools`,
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status;
}

describe('admin API: claim sets and client updates', () => {
  it('imports our JSON, lists and exports it, and refuses an invalid import with every reason', async () => {
    const imported = await admin('POST', 'claimSets', { claimSets: [campusReader] });
    expect([imported.status, imported.json()]).toEqual([201, { imported: ['Campus Reader'] }]);
    const listed = await admin('GET', 'claimSets');
    expect(listed.json()).toContainEqual({ name: 'Campus Reader', imported: true, resourceClaims: 1 });
    const exported = await admin('GET', 'claimSets/campus-reader');
    expect([exported.status, exported.json()]).toEqual([200, campusReader]);

    const invalid = await admin('POST', 'claimSets', { claimSets: [{ name: 'Ed-Fi Sandbox', resourceClaims: [] }] });
    expect([invalid.status, invalid.json()]).toEqual([
      400,
      expect.objectContaining({
        type: 'urn:ed-fi:api:bad-request',
        errors: [
          "Claim set 'Ed-Fi Sandbox' is the shipped claim set 'Ed-Fi Sandbox', which cannot be changed; import the " +
            'claim set under a name of your own.',
        ],
      }),
    ]);
    expect((await admin('GET', 'claimSets/nobody')).status).toBe(404);
  });

  it('updates a client: its live token has the new claim set at once; a held claim set is not deleted', async () => {
    const created = await admin('POST', 'clients', { key: 'campus', secret: SECRET, claimSet: 'Campus Reader' });
    expect(created.status).toBe(201);
    const tokenResponse = await app.inject({
      method: 'POST',
      url: `${BASE}/oauth/token`,
      headers: { 'content-type': 'application/json' },
      body: { grant_type: 'client_credentials', client_id: 'campus', client_secret: SECRET },
    });
    const token = tokenResponse.json<{ access_token: string }>().access_token;
    expect(await schoolsStatus(token)).toBe(200);

    const held = await admin('DELETE', 'claimSets/Campus Reader');
    expect([held.status, held.json<{ type: string }>().type]).toEqual([
      409,
      'urn:ed-fi:api:data-conflict:dependent-item-exists',
    ]);

    const updated = await admin('PATCH', 'clients/campus', {
      claimSet: 'Assessment Read',
      educationOrganizationIds: [255901],
    });
    expect([updated.status, updated.json()]).toEqual([
      200,
      expect.objectContaining({ key: 'campus', claimSet: 'Assessment Read', educationOrganizationIds: [255901] }),
    ]);
    expect(await schoolsStatus(token)).toBe(403);
    expect((await admin('DELETE', 'claimSets/Campus Reader')).status).toBe(204);

    const wrong = await admin('PATCH', 'clients/campus', { claimSet: 7, extra: true });
    expect([wrong.status, wrong.json<{ errors: string[] }>().errors]).toEqual([
      400,
      ["Unknown property 'extra'.", "'claimSet' must be a string."],
    ]);
    const unknown = await admin('PATCH', 'clients/nobody', { claimSet: 'SIS Vendor' });
    expect([unknown.status, unknown.json<{ errors: string[] }>().errors]).toEqual([
      404,
      ["No client has the key 'nobody'."],
    ]);
  });
});
