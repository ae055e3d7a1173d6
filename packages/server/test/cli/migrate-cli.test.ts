// `edfi-api migrate` and the set-up every command gives a new store: the schema is created only by a migration (which
// every command runs on a new, empty database), a new store is seeded whichever command meets it first, and an
// outdated schema is refused until it is migrated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { runCli, startServe } from './support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-migrate-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const sqliteSpec = (name: string) => `sqlite:${path.join(folder, name, 'edfi-api.sqlite')}`;
const registry = getModelRegistry();
const everything = { filters: [], offset: 0, limit: 0, totalCount: true };
/** Each test runs the command line in child processes, and seeds whole stores. */
const SLOW = { timeout: 60_000 };

/** How many school years and grade-level descriptors a store holds. */
async function seededCounts(spec: string): Promise<{ schoolYears: number; gradeLevels: number }> {
  const store: Store = await openStore(spec, registry);
  try {
    const count = async (endpoint: string) =>
      (await store.list(registry.getResource('ed-fi', endpoint)!, everything)).totalCount ?? 0;
    return { schoolYears: await count('schoolYearTypes'), gradeLevels: await count('gradeLevelDescriptors') };
  } finally {
    await store.close();
  }
}

function describeMigration(storeName: string, newSpec: () => string): void {
  describe(`edfi-api migrate (${storeName})`, SLOW, () => {
    it('creates and seeds a new store once, then reports it current', async () => {
      const spec = newSpec();
      const first = await runCli(['migrate', '--store', spec]);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/created the schema/);
      expect(first.stdout).toMatch(/Seeded [1-9][0-9]* descriptors and 60 school years/);
      const again = await runCli(['migrate', '--store', spec]);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/already current/);
      expect(again.stdout).not.toMatch(/Seeded/);
      expect((await seededCounts(spec)).schoolYears).toBe(60);
    });

    it('seeds a new store first touched by clients create, so serve then starts on a full catalogue', async () => {
      const spec = newSpec();
      const created = await runCli([
        'clients',
        'create',
        '--key',
        'first',
        '--claim-set',
        'SIS Vendor',
        '--store',
        spec,
      ]);
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/New store: seeded [1-9][0-9]* descriptors and 60 school years/);
      const counts = await seededCounts(spec);
      expect(counts.schoolYears).toBe(60);
      expect(counts.gradeLevels).toBeGreaterThan(0);
    });
  });
}

describeMigration('SQLite', () => sqliteSpec(`store-${Math.random().toString(36).slice(2)}`));

describePostgres('PostgreSQL store set-up', () => {
  const newSchema = schemasDroppedAfterAll();
  describeMigration('PostgreSQL', () => postgresSpec(newSchema('edfi_cli')));

  it(
    'serves a new PostgreSQL database in one command: schema, seed, sandbox client, token and data',
    SLOW,
    async () => {
      const server = await startServe(['--port', '0', '--store', postgresSpec(newSchema('edfi_serve'))]);
      try {
        const banner = await server.waitForStderr('Secret:');
        const [key, secret] = ['Key', 'Secret'].map((label) => new RegExp(`${label}:\\s+(\\S+)`).exec(banner)?.[1]);
        const base = `http://localhost:${server.port}/v7.3/api`;
        const token = await fetch(`${base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key!, client_secret: secret! }),
        });
        expect(token.status).toBe(200);
        const { access_token: accessToken } = (await token.json()) as { access_token: string };
        const descriptors = await fetch(`${base}/data/v3/ed-fi/gradeLevelDescriptors?totalCount=true`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        expect(descriptors.status).toBe(200);
        expect(Number(descriptors.headers.get('total-count'))).toBeGreaterThan(0);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
  );
});

describe('an outdated schema', SLOW, () => {
  it('is refused by serve until migrated, with the command to run', async () => {
    const spec = sqliteSpec('outdated');
    expect((await runCli(['migrate', '--store', spec])).code).toBe(0);
    const db = new Database(spec.slice('sqlite:'.length));
    db.prepare("UPDATE meta SET value = 'an older model' WHERE key = 'schema_fingerprint'").run();
    db.close();

    const refused = await runCli(['serve', '--port', '0', '--store', spec]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/older than this release or model; run `edfi-api migrate`/);

    const migrating = await startServe(['--port', '0', '--store', spec, '--migrate']);
    expect(await migrating.stop()).toBe(0);
    const current = await startServe(['--port', '0', '--store', spec]);
    expect(await current.stop()).toBe(0);
  });
});
