// Runs a suite once per store implementation: on SQLite, and on PostgreSQL when the test database answers (see
// postgres.ts). The suite gets the specs of new stores from its StoreUnderTest instead of naming `sqlite::memory:`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { describePostgres, newPostgresSpecs } from './postgres.js';

export interface NewSpecOptions {
  /** Several stores will open the spec at once (as worker processes do): SQLite then uses a file, not memory. */
  readonly shared?: boolean;
}

export interface StoreUnderTest {
  readonly name: 'SQLite' | 'PostgreSQL';
  /**
   * The spec of a new, empty store. PostgreSQL reuses one schema per file, emptied for each new spec: close the stores
   * opened on a spec before asking for the next.
   */
  newSpec(options?: NewSpecOptions): Promise<string>;
}

function sqliteUnderTest(): StoreUnderTest {
  let folder: string | undefined;
  let files = 0;
  afterAll(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });
  return {
    name: 'SQLite',
    newSpec: ({ shared = false } = {}) => {
      if (!shared) return Promise.resolve('sqlite::memory:');
      folder ??= mkdtempSync(path.join(tmpdir(), 'edfi-each-store-'));
      return Promise.resolve(`sqlite:${path.join(folder, `store-${++files}.sqlite`)}`);
    },
  };
}

function postgresUnderTest(): StoreUnderTest {
  return { name: 'PostgreSQL', newSpec: newPostgresSpecs() };
}

/** `describe(name, …)` on SQLite, then on PostgreSQL (skipped with the harness's one line when it is unreachable). */
export function describeEachStore(name: string, body: (store: StoreUnderTest) => void): void {
  describe(`${name} (SQLite)`, () => body(sqliteUnderTest()));
  describePostgres(`${name} (PostgreSQL)`, () => body(postgresUnderTest()));
}
