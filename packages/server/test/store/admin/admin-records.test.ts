// The administrative records of the SQLite store (the shared suite), and the migration of a store written by the
// first release (clients and tokens only).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { client, describeAdminRecords, sisApplication } from './admin-records-suite.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-admin-'));

describeAdminRecords('SQLite in memory', async () => {
  const store = await openStore('sqlite::memory:');
  return { store, dispose: () => store.close() };
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
    let store = await openStore(`sqlite:${file}`, undefined, { migrate: true });
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
      await store.saveProfiles([{ name: 'P', definition: '<Profiles />' }]);
      expect(await store.listProfiles()).toEqual([{ name: 'P', definition: '<Profiles />' }]);
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'admin_schema_version'").pluck().get()).toBe(6);
    db.close();
  });
});
