// The PostgreSQL test harness for test files: suites that run only when postgres-setup.ts found the test database,
// a schema of its own (random name) for each file, dropped at the end, and stores opened on it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, inject, type SuiteOptions } from 'vitest';
import type { StoreFactory } from '../store/conformance.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { StoreOptions } from '../../src/store/store.js';
import { POSTGRES_TEST_URL } from './postgres-setup.js';

export { POSTGRES_TEST_URL };

/** A describe block that runs only when the test database answers. */
export function describePostgres(name: string, body: () => void, options: SuiteOptions = {}): void {
  describe.skipIf(!inject('postgresReachable'))(name, options, body);
}

/** A new schema name, unique to this run. */
export function testSchemaName(prefix = 'edfi_test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** The test database's URL with our parameters (`schema`, `poolSize`, …) added. */
export function postgresSpec(schema: string, parameters: Readonly<Record<string, string>> = {}): string {
  const url = new URL(POSTGRES_TEST_URL);
  url.searchParams.set('schema', schema);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.toString();
}

/** Runs `work` on a connection of its own to the test database (outside any store). */
export async function withConnection<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs `work` on a connection of its own whose search path is the schema of the store `spec` names. */
export function withStoreConnection<T>(spec: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const schema = new URL(spec).searchParams.get('schema') ?? 'public';
  return withConnection(async (client) => {
    await client.query(`SET search_path TO "${schema}"`);
    return work(client);
  });
}

export async function dropSchema(schema: string): Promise<void> {
  await withConnection((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}

const DROP_TIMEOUT_MS = 120_000;

/** Registers dropping the schemas the returned function names, after the file's tests. */
export function schemasDroppedAfterAll(): (prefix?: string) => string {
  const schemas: string[] = [];
  // A schema holds some 300 tables and 1,200 indexes: dropping several takes longer than the default hook timeout on a
  // loaded machine.
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  }, DROP_TIMEOUT_MS);
  return (prefix) => {
    const schema = testSchemaName(prefix);
    schemas.push(schema);
    return schema;
  };
}

/**
 * Empties every table of the schema but the model's registrations (`meta`, `resource_type`) and restarts the counters,
 * so a migrated schema serves the next test as a new store: far quicker than migrating (~1 s) again. A schema no store
 * has migrated yet is left as it is.
 */
async function emptySchema(schema: string): Promise<void> {
  await withConnection(async (client) => {
    const { rows } = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT IN ('meta', 'resource_type')",
      [schema],
    );
    if (rows.length === 0) return;
    // Replica mode skips the foreign-key triggers, so the tables empty in any order.
    const statements = [
      `SET search_path TO "${schema}"`,
      'SET session_replication_role = replica',
      ...rows.map((row) => `DELETE FROM "${row.tablename}"`),
      'SET session_replication_role = DEFAULT',
      'ALTER SEQUENCE document_doc_id_seq RESTART',
      "UPDATE meta SET value = 0 WHERE key = 'change_version'",
    ];
    await client.query(statements.map((statement) => `${statement};`).join('\n'));
  });
}

/**
 * Specs of new, empty PostgreSQL stores for one test file: `count` distinct schemas of the file (each migrated when a
 * store first opens it), emptied on every call. Close the stores opened on earlier specs before asking again. The
 * schemas are dropped after the file's tests.
 */
export function newPostgresSpecs(): (count?: number) => Promise<string[]> {
  const newSchema = schemasDroppedAfterAll();
  const schemas: string[] = [];
  return async (count = 1) => {
    while (schemas.length < count) schemas.push(newSchema());
    const given = schemas.slice(0, count);
    await Promise.all(given.map(emptySchema));
    return given.map((schema) => postgresSpec(schema));
  };
}

/** The conformance factory for PostgreSQL: each store is new, on this file's schema (see newPostgresSpecs). */
export function postgresStoreFactory(): StoreFactory {
  const nextSpecs = newPostgresSpecs();
  return async (options?: StoreOptions) => {
    const spec = (await nextSpecs())[0]!;
    let store = new PostgresStore(spec, undefined, options);
    if ((await store.schemaStatus()) === 'empty') await store.migrate();
    await store.open();
    return {
      store,
      reopen: async () => {
        await store.close();
        store = new PostgresStore(spec, undefined, options);
        await store.open();
        return store;
      },
      dispose: () => store.close(),
    };
  };
}

/**
 * Registers dropping, after the file's tests, the databases the returned function creates: each call creates a new
 * empty database on the test server and resolves with its URL.
 */
export function databasesDroppedAfterAll(): (prefix?: string) => Promise<string> {
  const databases: string[] = [];
  afterAll(async () => {
    for (const database of databases) {
      await withConnection((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    }
  }, 60_000);
  return async (prefix = 'edfi_test_db') => {
    const database = testSchemaName(prefix);
    databases.push(database);
    await withConnection((client) => client.query(`CREATE DATABASE "${database}"`));
    const url = new URL(POSTGRES_TEST_URL);
    url.pathname = `/${database}`;
    return url.toString();
  };
}
