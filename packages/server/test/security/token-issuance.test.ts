// Token issuance rules beyond the request checks: the per-client limit of live tokens (contract §2.3 row 12), expiry
// and the purge of expired tokens, and `scope` narrowing a token to one education organization (rows 10–11).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import type { Caller } from '../../src/api/index.js';
import { createClient } from '../../src/security/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { BASE, requestToken, securedServer } from './support.js';

const KEY = 'limitedClient';
const SECRET = 'limited-client-secret-with-enough-chars';
const LIFETIME_SECONDS = 60;

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-tokens-'));
let file: string;
let store: Store;
let server: ApiServer;
let clock: number;

beforeEach(async ({ task }) => {
  file = path.join(folder, `${task.id}.sqlite`);
  store = await openStore(`sqlite:${file}`);
  await createClient(store, { key: KEY, secret: SECRET, educationOrganizationIds: [255901, 255901001] });
  clock = Date.now();
  const now = (): number => clock;
  ({ server } = await securedServer(store, {
    verifier: { now },
    oauth: { now, tokenLifetimeSeconds: LIFETIME_SECONDS },
  }));
});
afterEach(() => store.close());

function issue(fields: Record<string, string> = {}) {
  return requestToken(server, { client_id: KEY, client_secret: SECRET, ...fields });
}

function storedTokenCount(): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], number>('SELECT COUNT(*) FROM access_token').pluck().get()!;
  } finally {
    db.close();
  }
}

async function callerOfToken(token: string): Promise<Caller> {
  const response = await server.inject({
    url: `${BASE}/data/v3/whoami`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return response.json<Caller>();
}

describe('the per-client limit of live tokens', () => {
  it('answers the 16th request with the 429 too-many-tokens problem of contract §2.3', async () => {
    for (let count = 0; count < 15; count++) expect((await issue()).status).toBe(200);
    const refused = await server.inject({
      method: 'POST',
      url: `${BASE}/oauth/token`,
      headers: { 'content-type': 'application/json', 'correlation-id': 'limit-1' },
      body: { grant_type: 'client_credentials', client_id: KEY, client_secret: SECRET },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.body).toBe(
      JSON.stringify({
        detail: 'The caller has authenticated too many times in too short of a time period.',
        type: 'urn:ed-fi:api:security:authentication:too-many-tokens',
        title: 'Too Many Tokens',
        status: 429,
        correlationId: 'limit-1',
        errors: [
          'Too many access tokens have been requested (limit is 15). Access tokens should be reused until they expire.',
        ],
      }),
    );
    expect(storedTokenCount()).toBe(15);
  });

  it('counts only unexpired tokens, and purges expired ones when the next token is issued', async () => {
    for (let count = 0; count < 14; count++) expect((await issue()).status).toBe(200);
    clock += 30_000;
    expect((await issue()).status).toBe(200);
    expect((await issue()).status).toBe(429);
    clock += 30_000;
    expect(storedTokenCount()).toBe(15);
    expect((await issue()).status).toBe(200);
    expect(storedTokenCount()).toBe(2);
  });

  it('counts per client', async () => {
    await createClient(store, { key: 'other', secret: SECRET });
    for (let count = 0; count < 15; count++) expect((await issue()).status).toBe(200);
    expect((await requestToken(server, { client_id: 'other', client_secret: SECRET })).status).toBe(200);
  });
});

describe('token expiry', () => {
  it('accepts a token until its lifetime is over', async () => {
    const { access_token: token, expires_in } = (await issue()).json<{ access_token: string; expires_in: number }>();
    expect(expires_in).toBe(LIFETIME_SECONDS);
    const whoami = (): Promise<number> =>
      server
        .inject({ url: `${BASE}/data/v3/whoami`, headers: { authorization: `Bearer ${token}` } })
        .then((response) => response.status);
    clock += LIFETIME_SECONDS * 1000 - 1;
    expect(await whoami()).toBe(200);
    clock += 1;
    expect(await whoami()).toBe(401);
  });
});

describe('scope', () => {
  it("narrows the token to the requested education organization, one of the application's", async () => {
    const unscoped = (await issue()).json<{ access_token: string }>().access_token;
    const scoped = (await issue({ scope: '255901001' })).json<{ access_token: string; scope: string }>();
    expect(scoped.scope).toBe('255901001');
    expect((await callerOfToken(unscoped)).educationOrganizationIds).toEqual([255901, 255901001]);
    expect((await callerOfToken(scoped.access_token)).educationOrganizationIds).toEqual([255901001]);
  });

  it('refuses an education organization not associated with the application (row 11) before the limit (row 12)', async () => {
    for (let count = 0; count < 15; count++) expect((await issue()).status).toBe(200);
    const response = await issue({ scope: '255902' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_scope',
      error_description:
        "The client is not explicitly associated with the EducationOrganizationId specified in the requested 'scope'.",
    });
  });
});
