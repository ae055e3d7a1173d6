// The PostgreSQL store: the conformance suite, plus what only PostgreSQL has (connection specs, schemas migrated under
// an advisory lock by several nodes at once, snapshots on connections of their own, shared between nodes).
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createStore, StoreSchemaError, type Store } from '../../src/store/index.js';
import { parsePostgresSpec, redactedSpec } from '../../src/store/postgres/connection-spec.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { describeStoreConformance } from './conformance.js';
import {
  describePostgres,
  postgresSpec,
  postgresStoreFactory,
  schemasDroppedAfterAll,
  withConnection,
} from '../support/postgres.js';

// Every PostgreSQL write commits (and syncs its WAL) on its own: the conformance test that writes a full document of
// every resource (about 1,500 writes and 5,000 transactions) takes 10–15 s here, past vitest's default of 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('PostgreSQL connection specs', () => {
  it('takes the schema and pool size from the query, passes the rest on, and sets the search path', () => {
    const spec = parsePostgresSpec(
      'postgresql://edfi:secret@db.example:6543/ods?schema=edfi_7&poolSize=4&sslmode=require',
    );
    expect(spec.schema).toBe('edfi_7');
    expect(spec.poolSize).toBe(4);
    const url = new URL(spec.connectionString);
    expect([url.protocol, url.username, url.password, url.host, url.pathname]).toEqual([
      'postgresql:',
      'edfi',
      'secret',
      'db.example:6543',
      '/ods',
    ]);
    expect([...url.searchParams.keys()]).toEqual(['sslmode', 'options']);
    expect(url.searchParams.get('options')).toBe('-c jit=off -c search_path="edfi_7"');
  });

  it('defaults to the public schema and ten connections, and keeps given startup options, which may turn JIT on', () => {
    const spec = parsePostgresSpec('postgres://localhost/test?options=-c%20statement_timeout%3D5000%20-c%20jit%3Don');
    expect(spec).toMatchObject({ schema: 'public', poolSize: 10 });
    expect(new URL(spec.connectionString).searchParams.get('options')).toBe(
      '-c jit=off -c statement_timeout=5000 -c jit=on -c search_path="public"',
    );
  });

  it('refuses schema names that would need quoting, bad pool sizes and other protocols, without the password', () => {
    expect(() => parsePostgresSpec('postgres://u:pw@h/d?schema=a;drop')).toThrow(/names the schema 'a;drop'/);
    expect(() => parsePostgresSpec('postgres://u:pw@h/d?poolSize=0')).toThrow(/invalid poolSize '0'/);
    expect(() => parsePostgresSpec('postgres://u:pw@h/d?poolSize=many')).toThrow(/postgres:\/\/u:\*\*\*@h\/d/);
    expect(() => parsePostgresSpec('mysql://h/d')).toThrow(/not a postgres/);
    expect(redactedSpec('postgresql://user:p%40ss@host/db')).toBe('postgresql://user:***@host/db');
  });

  it('is what createStore makes of a postgres:// or postgresql:// spec', () => {
    expect(createStore('postgres://localhost/test?schema=s1')).toBeInstanceOf(PostgresStore);
    expect(createStore('postgresql://localhost/test')).toBeInstanceOf(PostgresStore);
  });
});

describePostgres('PostgreSQL', () => describeStoreConformance('PostgreSQL', postgresStoreFactory()));

describePostgres('PostgreSQL store connections', () => {
  it('run without JIT and in the store schema, as the server applies the startup options', async () => {
    const { connectionString } = parsePostgresSpec(postgresSpec('edfi_options'));
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      const settings = await client.query<{ jit: string; schema: string }>(
        "SELECT current_setting('jit') AS jit, current_setting('search_path') AS schema",
      );
      expect(settings.rows[0]).toEqual({ jit: 'off', schema: '"edfi_options"' });
    } finally {
      await client.end();
    }
  });
});

describePostgres('PostgreSQL store lifecycle', () => {
  const newSchema = schemasDroppedAfterAll();

  async function withStore<T>(schema: string, work: (store: Store) => Promise<T>): Promise<T> {
    const store = new PostgresStore(postgresSpec(schema));
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }

  it('creates a missing schema once when two nodes migrate at once, then finds it current', async () => {
    const schema = newSchema();
    expect(await withStore(schema, (store) => store.schemaStatus())).toBe('empty');
    const outcomes = await Promise.all([
      withStore(schema, (store) => store.migrate()),
      withStore(schema, (store) => store.migrate()),
    ]);
    expect(outcomes.sort()).toEqual(['created', 'current']);
    expect(await withStore(schema, (store) => store.migrate())).toBe('current');
    expect(await withStore(schema, (store) => store.schemaStatus())).toBe('current');
    const counts = await withConnection(async (client) => {
      const { rows } = await client.query<{ resources: string; duplicates: string }>(
        `SELECT count(*) AS resources, count(*) - count(DISTINCT (namespace, endpoint)) AS duplicates ` +
          `FROM "${schema}".resource_type`,
      );
      return rows[0]!;
    });
    expect(Number(counts.resources)).toBeGreaterThan(300);
    expect(Number(counts.duplicates)).toBe(0);
  });

  it('refuses to open an empty schema, and an outdated one until it is migrated', async () => {
    const schema = newSchema();
    await expect(withStore(schema, (store) => store.open())).rejects.toMatchObject({
      name: 'StoreSchemaError',
      status: 'empty',
    });
    await withStore(schema, (store) => store.migrate());
    await withConnection((client) =>
      client.query(`UPDATE "${schema}".meta SET text_value = 'an older model' WHERE key = 'schema_fingerprint'`),
    );
    const refusal = await withStore(schema, (store) => store.open()).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreSchemaError);
    expect(refusal).toMatchObject({ status: 'outdated' });
    expect(await withStore(schema, (store) => store.migrate())).toBe('upgraded');
    expect(await withStore(schema, async (store) => (await store.open(), store.isEmpty()))).toBe(true);
  });

  it('refuses to migrate over a table whose columns the model does not expect', async () => {
    const schema = newSchema();
    await withStore(schema, (store) => store.migrate());
    await withConnection((client) =>
      client.query(
        `ALTER TABLE "${schema}".document ADD COLUMN extra text; ` +
          `UPDATE "${schema}".meta SET text_value = 'an older model' WHERE key = 'schema_fingerprint'`,
      ),
    );
    await expect(withStore(schema, (store) => store.migrate())).rejects.toThrow(
      'Table document does not match this model (extra is not in this model); the database needs a migration',
    );
  });

  it('serves a snapshot that keeps seeing the moment it opened, until a fresh one is asked for', async () => {
    const schema = newSchema();
    await withStore(schema, async (store) => {
      await store.migrate();
      await store.open();
      const setVersion = (version: number) =>
        withConnection((client) =>
          client.query(`UPDATE "${schema}".meta SET value = $1 WHERE key = 'change_version'`, [version]),
        );
      await setVersion(5);
      const snapshot = await store.snapshot('session');
      expect(await snapshot!.newestChangeVersion()).toBe(5);
      await setVersion(9);
      expect(await store.newestChangeVersion()).toBe(9);
      expect(await (await store.snapshot('session'))!.newestChangeVersion()).toBe(5);
      expect(await (await store.snapshot('other'))!.newestChangeVersion()).toBe(9);
      expect(await (await store.snapshot('session', { fresh: true }))!.newestChangeVersion()).toBe(9);
    });
  });

  it("shares a session's snapshot between stores on one database while one of them holds it", async () => {
    const schema = newSchema();
    await withStore(schema, (store) => store.migrate());
    const setVersion = (version: number) =>
      withConnection((client) =>
        client.query(`UPDATE "${schema}".meta SET value = $1 WHERE key = 'change_version'`, [version]),
      );
    const [first, second, third] = [0, 1, 2].map(() => new PostgresStore(postgresSpec(schema)));
    try {
      for (const store of [first!, second!, third!]) await store.open();
      await setVersion(5);
      expect(await (await first!.snapshot('session'))!.newestChangeVersion()).toBe(5);
      await setVersion(9);
      // Imported from the first store, which holds the session open.
      expect(await (await second!.snapshot('session'))!.newestChangeVersion()).toBe(5);
      // The second store exported it again: it stays importable after the first lets it go.
      await first!.close();
      expect(await (await third!.snapshot('session'))!.newestChangeVersion()).toBe(5);
      // When no store holds it any more, the next one opens a new snapshot.
      await second!.close();
      await third!.close();
      const fourth = new PostgresStore(postgresSpec(schema));
      await fourth.open();
      try {
        expect(await (await fourth.snapshot('session'))!.newestChangeVersion()).toBe(9);
      } finally {
        await fourth.close();
      }
    } finally {
      for (const store of [first!, second!, third!]) await store.close();
    }
  });

  it('keeps no snapshots when the store allows none', async () => {
    const schema = newSchema();
    const store = new PostgresStore(postgresSpec(schema), undefined, { maxSnapshots: 0 });
    try {
      await store.migrate();
      await store.open();
      expect(await store.snapshot('session')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
