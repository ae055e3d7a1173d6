// Runs a suite once per store implementation: on SQLite, and on PostgreSQL when the test database answers (see
// postgres.ts). The suite gets the specs of new stores from its StoreUnderTest instead of naming `sqlite::memory:`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { describePostgres, newPostgresSpecs } from './postgres.js';

export interface NewSpecOptions {
  /**
   * The spec is opened more than once, by several stores at once (as worker processes do) or again after a close:
   * SQLite then uses a file, not memory.
   */
  readonly shared?: boolean;
}

export interface StoreUnderTest {
  readonly name: 'SQLite' | 'PostgreSQL';
  /**
   * The specs of `count` new, empty stores, distinct from each other. PostgreSQL reuses the suite's schemas, emptied
   * on every call: close the stores opened on earlier specs before asking again.
   */
  newSpecs(count: number, options?: NewSpecOptions): Promise<string[]>;
  /** The spec of one new, empty store (as newSpecs). */
  newSpec(options?: NewSpecOptions): Promise<string>;
}

function storeUnderTest(
  name: StoreUnderTest['name'],
  newSpecs: (count: number, options?: NewSpecOptions) => Promise<string[]>,
): StoreUnderTest {
  return { name, newSpecs, newSpec: async (options) => (await newSpecs(1, options))[0]! };
}

function sqliteUnderTest(): StoreUnderTest {
  let folder: string | undefined;
  let files = 0;
  afterAll(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });
  const newSpec = ({ shared = false }: NewSpecOptions = {}): string => {
    if (!shared) return 'sqlite::memory:';
    folder ??= mkdtempSync(path.join(tmpdir(), 'edfi-each-store-'));
    return `sqlite:${path.join(folder, `store-${++files}.sqlite`)}`;
  };
  return storeUnderTest('SQLite', (count, options) =>
    Promise.resolve(Array.from({ length: count }, () => newSpec(options))),
  );
}

/** A write to PostgreSQL costs round trips and a durable commit: its tests get more time than vitest's default 5 s. */
const POSTGRES_TEST_TIMEOUT_MS = 30_000;
const MIGRATION_TIMEOUT_MS = 60_000;

function postgresUnderTest(): StoreUnderTest {
  const newSpecs = newPostgresSpecs();
  // Migrating a schema takes a second or more: the first one is migrated before the suite, so no test pays for it.
  beforeAll(async () => {
    const store = createStore((await newSpecs())[0]!);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
  }, MIGRATION_TIMEOUT_MS);
  return storeUnderTest('PostgreSQL', (count) => newSpecs(count));
}

/** `describe(name, …)` on SQLite, then on PostgreSQL (skipped with the harness's one line when it is unreachable). */
export function describeEachStore(name: string, body: (stores: StoreUnderTest) => void): void {
  describe(`${name} (SQLite)`, () => body(sqliteUnderTest()));
  describePostgres(`${name} (PostgreSQL)`, () => body(postgresUnderTest()), { timeout: POSTGRES_TEST_TIMEOUT_MS });
}
