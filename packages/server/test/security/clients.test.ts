import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  authenticateClient,
  ClientCreationError,
  createClient,
  DuplicateClientError,
  listClients,
} from '../../src/security/index.js';
import type { Store } from '../../src/store/store.js';
import { memoryStore } from './support.js';

let store: Store;

beforeEach(async () => {
  store = await memoryStore();
});
afterEach(() => store.close());

describe('createClient credentials', () => {
  it('generates a long alphanumeric key and secret when none are given', async () => {
    const created = await createClient(store);
    expect(created.key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(created.secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(created.warnings).toEqual([]);
    expect(created.name).toBe(created.key);
    const stored = (await store.findClient(created.key))!;
    expect(stored).toMatchObject({ key: created.key, active: true });
    expect(new Date(stored.createdAt).toISOString()).toBe(stored.createdAt);
  });

  it('stores a salted scrypt hash, never the secret', async () => {
    const secret = 'the-very-same-secret-for-two-clients';
    await createClient(store, { key: 'one', secret });
    await createClient(store, { key: 'two', secret });
    const [one, two] = [(await store.findClient('one'))!, (await store.findClient('two'))!];
    expect(JSON.stringify([one, two])).not.toContain(secret);
    expect(one.secretHash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(one.secretHash).not.toBe(two.secretHash);
  });

  it('authenticates the right secret of an active client only', async () => {
    await createClient(store, { key: 'k', secret: 'correct-horse-battery-staple-000000', name: 'Vendor' });
    expect((await authenticateClient(store, 'k', 'correct-horse-battery-staple-000000'))?.name).toBe('Vendor');
    expect(await authenticateClient(store, 'k', 'correct-horse-battery-staple-000001')).toBeUndefined();
    expect(await authenticateClient(store, 'unknown', 'correct-horse-battery-staple-000000')).toBeUndefined();
    await store.revokeClient('k');
    expect(await authenticateClient(store, 'k', 'correct-horse-battery-staple-000000')).toBeUndefined();
  });

  it('warns about a short explicit secret or one with a colon, and still creates the client', async () => {
    const created = await createClient(store, { key: 'short', secret: 'abc:def' });
    expect(created.warnings).toHaveLength(2);
    expect(created.warnings[0]).toContain('7 characters');
    expect(await store.findClient('short')).toBeDefined();
  });

  it('refuses a duplicate key, a blank key or secret, and a key with a colon', async () => {
    await createClient(store, { key: 'taken' });
    await expect(createClient(store, { key: 'taken' })).rejects.toThrow(DuplicateClientError);
    await expect(createClient(store, { key: ' ' })).rejects.toThrow(/blank/);
    await expect(createClient(store, { key: 'a:b' })).rejects.toThrow(/':'/);
    await expect(createClient(store, { secret: '' })).rejects.toThrow(/blank/);
  });
});

describe('createClient applications', () => {
  it('creates a vendor and an application named after the client, with the Ed-Fi Sandbox claim set by default', async () => {
    const created = await createClient(store, { key: 'k1', name: 'Roster App' });
    expect(created).toMatchObject({
      vendor: 'Roster App',
      application: 'Roster App',
      claimSet: 'Ed-Fi Sandbox',
      educationOrganizationIds: [],
      namespacePrefixes: [],
      profiles: [],
    });
  });

  it('accepts either spelling of a claim-set name and stores the ODS one', async () => {
    const created = await createClient(store, { key: 'k1', claimSet: 'sisvendor' });
    expect(created.claimSet).toBe('SIS Vendor');
    expect((await store.findClientApplication('k1'))?.claimSetName).toBe('SIS Vendor');
  });

  it('refuses an unknown claim set, listing the valid names', async () => {
    const refusal = createClient(store, { key: 'k1', claimSet: 'Superuser' });
    await expect(refusal).rejects.toThrow(ClientCreationError);
    await expect(refusal).rejects.toThrow(/Unknown claim set 'Superuser'\. Valid claim sets: .*'?SIS Vendor/);
    expect(await store.findClient('k1')).toBeUndefined();
  });

  it('refuses education organization ids that are not positive whole numbers, and blank namespaces', async () => {
    await expect(createClient(store, { educationOrganizationIds: [0] })).rejects.toThrow(/'0' is not an education/);
    await expect(createClient(store, { educationOrganizationIds: [1.5] })).rejects.toThrow(ClientCreationError);
    await expect(createClient(store, { namespacePrefixes: [' '] })).rejects.toThrow(/namespace prefix must not/);
  });

  it('adds a second key to an existing application, which keeps its grants', async () => {
    const application = {
      vendor: 'Grand Bend',
      application: 'SIS',
      claimSet: 'SIS Vendor',
      educationOrganizationIds: [255901, 255901001],
      namespacePrefixes: ['uri://gbisd.edu'],
    };
    await createClient(store, { key: 'first', ...application });
    const second = await createClient(store, { key: 'second', vendor: 'Grand Bend', application: 'SIS' });
    expect(second).toMatchObject({ claimSet: 'SIS Vendor', educationOrganizationIds: [255901, 255901001] });
    expect(await store.findClientApplication('second')).toEqual(await store.findClientApplication('first'));
    const again = await createClient(store, {
      key: 'third',
      ...application,
      educationOrganizationIds: [255901001, 255901],
    });
    expect(again.namespacePrefixes).toEqual(['uri://gbisd.edu']);
  });

  it('refuses to join an existing application or vendor with other grants', async () => {
    await createClient(store, {
      key: 'first',
      vendor: 'V',
      application: 'A',
      claimSet: 'SIS Vendor',
      namespacePrefixes: ['uri://v'],
    });
    await expect(
      createClient(store, { key: 'k2', vendor: 'V', application: 'A', claimSet: 'Roster Vendor' }),
    ).rejects.toThrow(
      "The application 'A' of vendor 'V' already exists with other claim set (SIS Vendor); leave the claim set out to add a client to it.",
    );
    await expect(
      createClient(store, { key: 'k3', vendor: 'V', application: 'B', namespacePrefixes: ['uri://other'] }),
    ).rejects.toThrow("The vendor 'V' already exists with other namespace prefixes (uri://v)");
    const sameVendor = await createClient(store, {
      key: 'k4',
      vendor: 'V',
      application: 'B',
      claimSet: 'Roster Vendor',
    });
    expect(sameVendor).toMatchObject({ application: 'B', claimSet: 'Roster Vendor', namespacePrefixes: ['uri://v'] });
  });
});

describe('listClients', () => {
  it('lists clients by key without secrets, with their applications and live token counts', async () => {
    const created = await createClient(store, {
      key: 'b',
      claimSet: 'Assessment Vendor',
      namespacePrefixes: ['uri://a'],
    });
    await createClient(store, { key: 'a', name: 'First' });
    const now = Date.now();
    await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'b', expiresAt: now + 60_000 });
    await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'b', expiresAt: now + 120_000 });
    const clients = await listClients(store, now);
    expect(clients.map(({ key, name, liveTokens }) => [key, name, liveTokens])).toEqual([
      ['a', 'First', 0],
      ['b', 'b', 2],
    ]);
    expect(clients[1]).toEqual({
      key: 'b',
      name: 'b',
      vendor: 'b',
      application: 'b',
      claimSet: 'Assessment Vendor',
      educationOrganizationIds: [],
      namespacePrefixes: ['uri://a'],
      profiles: [],
      active: true,
      liveTokens: 2,
      createdAt: expect.any(String),
      ownershipToken: expect.stringMatching(/^application \d+$/),
      accessOwnershipTokens: [],
    });
    expect(JSON.stringify(clients)).not.toContain(created.secret);
    expect((await listClients(store, now + 90_000))[1]!.liveTokens).toBe(1);
  });
});
