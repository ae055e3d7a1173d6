import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Unauthorized, type ApiServer } from '@edfi-api/framework';
import type { Caller } from '../../src/api/index.js';
import { createBearerVerifier, createClient, hashAccessToken } from '../../src/security/index.js';
import type { AccessTokenRecord, Store } from '../../src/store/store.js';
import { BASE, memoryStore, requestToken, securedServer } from './support.js';

const KEY = 'bearerClient';
const SECRET = 'bearer-client-secret-with-enough-chars';

let store: Store;
let server: ApiServer;
let clock: number;

beforeEach(async () => {
  store = await memoryStore();
  await createClient(store, {
    key: KEY,
    secret: SECRET,
    vendor: 'Vendor',
    application: 'App',
    claimSet: 'SIS Vendor',
    educationOrganizationIds: [255901, 255950],
    namespacePrefixes: ['uri://ed-fi.org'],
    profiles: ['Test-Profile'],
  });
  clock = Date.now();
  ({ server } = await securedServer(store, { verifier: { now: () => clock }, oauth: { now: () => clock } }));
});
afterEach(() => store.close());

async function issueToken(): Promise<string> {
  return (await requestToken(server, { client_id: KEY, client_secret: SECRET })).json<{ access_token: string }>()
    .access_token;
}

function whoami(authorization?: string) {
  return server.inject({
    url: `${BASE}/data/v3/whoami`,
    headers: authorization === undefined ? {} : { authorization },
  });
}

describe('bearer tokens on a protected route', () => {
  it('lets a fresh token through, the caller carrying what authorization needs', async () => {
    const token = await issueToken();
    const response = await whoami(`Bearer ${token}`);
    expect(response.status).toBe(200);
    const ownership = await store.findClientOwnership(KEY);
    expect(ownership?.accessibleOwnershipTokenIds).toEqual([ownership?.ownershipTokenId]);
    expect(response.json<Caller>()).toEqual({
      clientId: KEY,
      claimSetName: 'SIS Vendor',
      educationOrganizationIds: [255901, 255950],
      namespacePrefixes: ['uri://ed-fi.org'],
      ownershipTokenId: ownership!.ownershipTokenId,
      accessibleOwnershipTokenIds: ownership!.accessibleOwnershipTokenIds,
      profileNames: ['Test-Profile'],
    });
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
    const saved: AccessTokenRecord[] = [];
    const saveAccessToken = store.saveAccessToken.bind(store);
    store.saveAccessToken = (token, options) => (saved.push(token), saveAccessToken(token, options));
    const token = await issueToken();
    expect(saved).toEqual([{ tokenHash: hashAccessToken(token), clientKey: KEY, expiresAt: clock + 1800 * 1000 }]);
    expect(JSON.stringify(saved)).not.toContain(token);
  });
});

describe('createBearerVerifier', () => {
  it("rejects a value that is not a GUID with 'Invalid Authorization header.'", () => {
    const { verify } = createBearerVerifier(store);
    expect(() => verify('not-a-token')).toThrow(new Unauthorized('Invalid Authorization header.'));
    expect(() => verify('0'.repeat(31))).toThrow(Unauthorized);
  });

  it("rejects an unknown token with 'Invalid token'", async () => {
    const { verify } = createBearerVerifier(store);
    await expect(Promise.resolve(verify('0'.repeat(32)))).rejects.toThrow(new Unauthorized('Invalid token'));
  });

  it('answers the caller the token stands for, as the identity handlers receive', async () => {
    const verified = await verifiedToken(await issueToken());
    expect(verified.clientId).toBe(KEY);
    expect(verified.identity).toMatchObject({
      clientId: KEY,
      claimSetName: 'SIS Vendor',
      educationOrganizationIds: [255901, 255950],
      namespacePrefixes: ['uri://ed-fi.org'],
    });
  });

  it('answers from its cache within the TTL, then asks the store again', async () => {
    const token = await issueToken();
    const counting = countingStore();
    let now = clock;
    const { verify } = createBearerVerifier(counting, { cacheTtlMs: 1000, now: () => now });
    expect((await verify(token)).identity.clientId).toBe(KEY);
    await verify(token);
    expect(counting.lookups).toBe(1);
    now += 1000;
    await verify(token);
    expect(counting.lookups).toBe(2);
  });

  it('does not cache with a zero TTL', async () => {
    const token = await issueToken();
    const counting = countingStore();
    const { verify } = createBearerVerifier(counting, { cacheTtlMs: 0 });
    await verify(token);
    await verify(token);
    expect(counting.lookups).toBe(2);
  });

  it("forgets a revoked client's cached tokens at once, while a revocation elsewhere waits for the TTL", async () => {
    const token = await issueToken();
    const here = createBearerVerifier(store);
    const elsewhere = createBearerVerifier(store);
    await here.verify(token);
    await elsewhere.verify(token);
    expect(await store.revokeClient(KEY)).toBe(1);
    here.forgetClient(KEY);
    await expect(Promise.resolve(here.verify(token))).rejects.toThrow(new Unauthorized('Invalid token'));
    expect((await elsewhere.verify(token)).identity.clientId).toBe(KEY);
  });
});

async function verifiedToken(token: string) {
  return createBearerVerifier(store).verify(token);
}

function countingStore() {
  const counting = {
    lookups: 0,
    findAccessToken: (hash: string, now: number) => {
      counting.lookups++;
      return store.findAccessToken(hash, now);
    },
    findClientApplication: (key: string) => store.findClientApplication(key),
    findClaimSet: (name: string) => store.findClaimSet(name),
    findClientOwnership: (key: string) => store.findClientOwnership(key),
  };
  return counting;
}
