// The administrative records of the SQLite store: vendors, applications, clients and tokens, and the migration of a
// store written by the first release (clients and tokens only).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type ApplicationDefinition, type Store } from '../../../src/store/index.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-admin-'));

const client = (key: string) => ({
  key,
  name: `Client ${key}`,
  secretHash: 'salt$hash',
  active: true,
  createdAt: 'now',
});

const sisApplication: ApplicationDefinition = {
  vendorName: 'Grand Bend',
  namespacePrefixes: ['uri://gbisd.edu', 'uri://ed-fi.org'],
  applicationName: 'SIS',
  claimSetName: 'SIS Vendor',
  educationOrganizationIds: [255901001, 255901],
  profileNames: ['Profile-B', 'Profile-A'],
};

describe('administrative records', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
  });
  afterEach(() => store.close());

  it('creates a vendor and an application with a client, and joins them with the next client', async () => {
    await store.createClient(client('k1'), sisApplication);
    await store.createClient(client('k2'), { ...sisApplication, claimSetName: 'ignored for an existing application' });
    const application = await store.findApplication('Grand Bend', 'SIS');
    expect(application).toEqual({
      applicationId: expect.any(Number),
      vendorName: 'Grand Bend',
      namespacePrefixes: ['uri://ed-fi.org', 'uri://gbisd.edu'],
      applicationName: 'SIS',
      claimSetName: 'SIS Vendor',
      educationOrganizationIds: [255901, 255901001],
      profileNames: ['Profile-A', 'Profile-B'],
    });
    expect(await store.findClientApplication('k1')).toEqual(application);
    expect(await store.findClientApplication('k2')).toEqual(application);
    expect(await store.findVendorNamespacePrefixes('Grand Bend')).toEqual(['uri://ed-fi.org', 'uri://gbisd.edu']);
    expect(await store.findVendorNamespacePrefixes('Nobody')).toBeUndefined();
    expect(await store.findApplication('Grand Bend', 'Other')).toBeUndefined();
  });

  it('adds an application to an existing vendor, which keeps its prefixes', async () => {
    await store.createClient(client('k1'), sisApplication);
    await store.createClient(client('k2'), {
      ...sisApplication,
      applicationName: 'Roster',
      namespacePrefixes: ['uri://x'],
    });
    expect((await store.findClientApplication('k2'))?.namespacePrefixes).toEqual([
      'uri://ed-fi.org',
      'uri://gbisd.edu',
    ]);
  });

  it('keeps a client created without an application without one', async () => {
    await store.createClient(client('k1'));
    expect(await store.findClient('k1')).toEqual(client('k1'));
    expect(await store.findClientApplication('k1')).toBeUndefined();
    expect(await store.findClientApplication('unknown')).toBeUndefined();
  });

  it('lists client details with live token counts', async () => {
    await store.createClient(client('b'), sisApplication);
    await store.createClient(client('a'));
    await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'b', expiresAt: 2000 }, { now: 1000 });
    await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'b', expiresAt: 3000 }, { now: 1000 });
    const details = await store.listClientDetails(2500);
    expect(details.map((each) => [each.client.key, each.application?.applicationName, each.liveTokens])).toEqual([
      ['a', undefined, 0],
      ['b', 'SIS', 1],
    ]);
  });

  it('saves tokens within a per-client limit, purging expired ones first', async () => {
    await store.createClient(client('k1'));
    const limit = { perClientLimit: 2, now: 1000 };
    expect(await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 1500 }, limit)).toBe(true);
    expect(await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'k1', expiresAt: 5000 }, limit)).toBe(true);
    expect(await store.saveAccessToken({ tokenHash: 'h3', clientKey: 'k1', expiresAt: 5000 }, limit)).toBe(false);
    expect(await store.findAccessToken('h3', 1000)).toBeUndefined();
    expect(
      await store.saveAccessToken({ tokenHash: 'h4', clientKey: 'k1', expiresAt: 5000 }, { ...limit, now: 1500 }),
    ).toBe(true);
    expect(await store.findAccessToken('h1', 0)).toBeUndefined();
  });

  it('keeps the scope of a token', async () => {
    await store.createClient(client('k1'), sisApplication);
    await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 5000, educationOrganizationId: 255901 });
    expect(await store.findAccessToken('h1', 1000)).toEqual({
      tokenHash: 'h1',
      clientKey: 'k1',
      expiresAt: 5000,
      educationOrganizationId: 255901,
    });
  });

  it('revokes a client: deactivated, tokens deleted; undefined for an unknown key', async () => {
    await store.createClient(client('k1'));
    await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 5000 }, { now: 0 });
    await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'k1', expiresAt: 5000 }, { now: 0 });
    expect(await store.revokeClient('k1')).toBe(2);
    expect((await store.findClient('k1'))?.active).toBe(false);
    expect(await store.findAccessToken('h1', 1000)).toBeUndefined();
    expect(await store.revokeClient('k1')).toBe(0);
    expect(await store.revokeClient('unknown')).toBeUndefined();
  });

  it('finds no token of an inactive client', async () => {
    await store.createClient({ ...client('k1'), active: false });
    await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 5000 }, { now: 0 });
    expect(await store.findAccessToken('h1', 1000)).toBeUndefined();
  });
});

/** A store as the first release left it: its client and token tables, a client with a live token, an older schema. */
function writeFirstReleaseStore(file: string): void {
  const db = new Database(file);
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
    INSERT INTO meta (key, value) VALUES ('schema_fingerprint', 'a fingerprint of the first release'), ('change_version', 0);
    CREATE TABLE client (client_key TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT NOT NULL, active INTEGER NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE access_token (token_hash TEXT PRIMARY KEY, client_key TEXT NOT NULL REFERENCES client (client_key) ON DELETE CASCADE, expires_at INTEGER NOT NULL) WITHOUT ROWID;
    CREATE INDEX access_token_client_key ON access_token (client_key);
    CREATE INDEX access_token_expires_at ON access_token (expires_at);
    INSERT INTO client VALUES ('oldKey', 'Sandbox', 'salt$hash', 1, '2024-01-01T00:00:00.000Z');
    INSERT INTO access_token VALUES ('oldTokenHash', 'oldKey', 4102444800000);`);
  db.close();
}

describe('a store written by the first release', () => {
  it('opens with its clients and tokens, gains applications and token scopes, and reopens unchanged', async () => {
    const file = path.join(folder, 'first-release.sqlite');
    writeFirstReleaseStore(file);
    let store = await openStore(`sqlite:${file}`);
    try {
      expect(await store.findClient('oldKey')).toMatchObject({ name: 'Sandbox', active: true });
      expect(await store.findClientApplication('oldKey')).toBeUndefined();
      expect(await store.findAccessToken('oldTokenHash', Date.now())).toEqual({
        tokenHash: 'oldTokenHash',
        clientKey: 'oldKey',
        expiresAt: 4102444800000,
      });
      await store.createClient(client('newKey'), sisApplication);
      await store.saveAccessToken({
        tokenHash: 'h',
        clientKey: 'newKey',
        expiresAt: 4102444800000,
        educationOrganizationId: 255901,
      });
      expect((await store.listClientDetails(Date.now())).map((each) => [each.client.key, each.liveTokens])).toEqual([
        ['newKey', 1],
        ['oldKey', 1],
      ]);
      await store.close();
      store = await openStore(`sqlite:${file}`);
      expect((await store.findClientApplication('newKey'))?.claimSetName).toBe('SIS Vendor');
      expect((await store.findAccessToken('h', Date.now()))?.educationOrganizationId).toBe(255901);
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'admin_schema_version'").pluck().get()).toBe(2);
    db.close();
  });
});
