// The stores a benchmark run compares (`--store`/`--stores`): `sqlite:` (a new file in a temporary folder, or in the
// folder given after the colon) and `postgres://…` (a new schema of its own per use, dropped afterwards).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { isPostgresSpec, parsePostgresSpec, quoteIdentifier } from '../src/store/postgres/connection-spec.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface BenchStore {
  readonly kind: StoreKind;
  readonly label: string;
  /** As given: `sqlite:[folder]` or a PostgreSQL URL (its `schema` parameter is replaced per use). */
  readonly base: string;
}

/** A store spec for one use, and how to remove what it created. */
export interface FreshStore {
  readonly spec: string;
  dispose(): Promise<void>;
}

const SQLITE_PREFIX = 'sqlite:';

export function parseBenchStore(option: string): BenchStore {
  if (option === 'sqlite' || option.startsWith(SQLITE_PREFIX)) return { kind: 'sqlite', label: 'SQLite', base: option };
  if (isPostgresSpec(option)) {
    parsePostgresSpec(option);
    return { kind: 'postgres', label: 'PostgreSQL', base: option };
  }
  throw new Error(`Unsupported store '${option}': expected sqlite:[folder] or postgres://user@host:port/database`);
}

/** `postgres://…` with the given schema in place of any `schema` parameter (other parameters kept). */
function withSchema(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return url.toString();
}

/** Runs `work` on one connection to the database a PostgreSQL store spec names (in the spec's schema). */
export async function withPostgresClient<T>(spec: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: parsePostgresSpec(spec).connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function freshStore(store: BenchStore): Promise<FreshStore> {
  if (store.kind === 'postgres') {
    const schema = `bench_${randomBytes(6).toString('hex')}`;
    const spec = withSchema(store.base, schema);
    const drop = `DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`;
    return { spec, dispose: () => withPostgresClient(spec, async (client) => void (await client.query(drop))) };
  }
  const parent = store.base.slice(SQLITE_PREFIX.length) || tmpdir();
  const directory = mkdtempSync(join(parent, 'edfi-bench-'));
  return {
    spec: `${SQLITE_PREFIX}${join(directory, 'bench.sqlite')}`,
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** Runs `work` with a fresh store of the kind given, removing it afterwards whatever happens. */
export async function withFreshStore<T>(store: BenchStore, work: (spec: string) => Promise<T>): Promise<T> {
  const fresh = await freshStore(store);
  try {
    return await work(fresh.spec);
  } finally {
    await fresh.dispose();
  }
}
