import { beforeEach, describe, expect, it } from 'vitest';
import { Unauthorized, type ApiServer } from '@edfi-api/framework';
import { createBearerVerifier, createClient, hashAccessToken } from '../../src/security/index.js';
import { BASE, FORM, MemorySecurityStore, form, securedServer } from './support.js';

const KEY = 'bearerClient';
const SECRET = 'bearer-client-secret-with-enough-chars';

let store: MemorySecurityStore;
let server: ApiServer;
let clock: number;

beforeEach(async () => {
  store = new MemorySecurityStore();
  await createClient(store, { key: KEY, secret: SECRET });
  clock = Date.now();
  server = await securedServer(store, { now: () => clock });
});

async function issueToken(): Promise<string> {
  const response = await server.inject({
    method: 'POST',
    url: `${BASE}/oauth/token`,
    headers: FORM,
    body: form({ grant_type: 'client_credentials', client_id: KEY, client_secret: SECRET }),
  });
  return response.json<{ access_token: string }>().access_token;
}

function whoami(authorization?: string) {
  return server.inject({
    url: `${BASE}/data/v3/whoami`,
    headers: authorization === undefined ? {} : { authorization },
  });
}

describe('bearer tokens on a protected route', () => {
  it('lets a fresh token through with the client id as principal', async () => {
    const token = await issueToken();
    const response = await whoami(`Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ clientId: KEY });
  });

  it('compares the scheme and the hex digits case-insensitively, and takes the hyphenated GUID spelling', async () => {
    const token = await issueToken();
    expect((await whoami(`bearer ${token.toUpperCase()}`)).status).toBe(200);
    const hyphenated = `${token.slice(0, 8)}-${token.slice(8, 12)}-${token.slice(12, 16)}-${token.slice(16, 20)}-${token.slice(20)}`;
    expect((await whoami(`Bearer ${hyphenated}`)).status).toBe(200);
  });

  it.each([
    [undefined, 'Authorization header is missing.'],
    [`Bearer ${'0'.repeat(32)}`, 'Invalid token'],
    ['Bearer not-a-guid', 'Invalid Authorization header.'],
  ])('refuses %s with a 401 problem saying %s', async (authorization, message) => {
    const response = await whoami(authorization);
    expect(response.status).toBe(401);
    expect(response.json()).toMatchObject({ type: 'urn:ed-fi:api:security:authentication', errors: [message] });
  });

  it('refuses an expired token, even while cached', async () => {
    const token = await issueToken();
    expect((await whoami(`Bearer ${token}`)).status).toBe(200);
    clock += 1800 * 1000 - 1000;
    expect((await whoami(`Bearer ${token}`)).status).toBe(200);
    clock += 2000;
    expect((await whoami(`Bearer ${token}`)).status).toBe(401);
  });

  it('keeps only the hash and the expiry in the store', async () => {
    const before = Date.now();
    const token = await issueToken();
    const after = Date.now();
    expect(store.tokens).toHaveLength(1);
    const [record] = store.tokens;
    expect(record).toMatchObject({ tokenHash: hashAccessToken(token), clientKey: KEY });
    expect(record!.expiresAt).toBeGreaterThanOrEqual(before + 1800 * 1000);
    expect(record!.expiresAt).toBeLessThanOrEqual(after + 1800 * 1000);
    expect(JSON.stringify(store.tokens)).not.toContain(token);
  });
});

describe('createBearerVerifier', () => {
  it("rejects a value that is not a GUID with 'Invalid Authorization header.'", async () => {
    const verify = createBearerVerifier(store);
    expect(() => verify('not-a-token')).toThrow(new Unauthorized('Invalid Authorization header.'));
    expect(() => verify('0'.repeat(31))).toThrow(Unauthorized);
  });

  it("rejects an unknown token with 'Invalid token'", async () => {
    const verify = createBearerVerifier(store);
    await expect(Promise.resolve(verify('0'.repeat(32)))).rejects.toThrow(new Unauthorized('Invalid token'));
  });

  it('answers from its cache within the TTL, then asks the store again', async () => {
    const token = await issueToken();
    let lookups = 0;
    const counting = {
      findAccessToken: (hash: string, now: number) => {
        lookups++;
        return store.findAccessToken(hash, now);
      },
    };
    let now = clock;
    const verify = createBearerVerifier(counting, { cacheTtlMs: 1000, now: () => now });
    expect((await verify(token)).get('client_id')).toBe(KEY);
    await verify(token);
    expect(lookups).toBe(1);
    now += 1000;
    await verify(token);
    expect(lookups).toBe(2);
  });

  it('does not cache with a zero TTL', async () => {
    const token = await issueToken();
    let lookups = 0;
    const verify = createBearerVerifier(
      { findAccessToken: (hash, now) => (lookups++, store.findAccessToken(hash, now)) },
      { cacheTtlMs: 0 },
    );
    await verify(token);
    await verify(token);
    expect(lookups).toBe(2);
  });
});
