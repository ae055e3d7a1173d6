// How much the PostgreSQL store writes per document (issue 11): full students, then typical student-school
// associations, upserted as new items through the store API by concurrent callers (as the HTTP bench's clients make
// them), and per resource table what that left: WAL bytes per upsert, heap and index bytes, rows inserted, updated
// and dead (from pg_stat_user_tables once every connection of the store has ended and reported), statements per
// upsert. WAL is the whole cluster's: other databases' writes meanwhile count too, so take the smallest of a few runs.
// Run: `npm run bench:write-amplification -w packages/server -- postgres://user@host:port/db [documents] [callers]`.
import pg from 'pg';
import { openStore } from '../src/store/index.js';
import { parsePostgresSpec } from '../src/store/postgres/connection-spec.js';
import { resourceKey } from '../src/store/relational/schema-plan.js';
import { planPostgresSchema } from '../src/store/postgres/schema.js';
import type { DocumentWrite, Store } from '../src/store/store.js';
import { freshStore, parseBenchStore, withPostgresClient } from './bench-stores.js';
import { prepareWorkload, registry } from './ceiling-workload.js';

interface Phase {
  readonly table: string;
  readonly walBytes: number;
  readonly statements: number;
}

interface TableFigures {
  readonly heap: number;
  readonly indexes: number;
  readonly inserted: number;
  readonly updated: number;
  readonly dead: number;
}

const STATS_WAIT_MS = 30_000;
const plan = planPostgresSchema(registry);

/** Counts the queries every pg client sends from now on. */
function countStatements(): () => number {
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++;
    return (query as (...values: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return () => {
    pg.Client.prototype.query = query;
    return count;
  };
}

async function walLsn(client: pg.Client): Promise<string> {
  return (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows[0]!.lsn;
}

async function upsertAll(store: Store, writes: readonly DocumentWrite[], callers: number): Promise<void> {
  let next = 0;
  const caller = async (): Promise<void> => {
    while (next < writes.length) {
      const outcome = await store.upsert(writes[next++]!);
      if (outcome.status !== 'created') throw new Error(`Expected a new item, got ${outcome.status}`);
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
}

async function measurePhase(
  store: Store,
  observer: pg.Client,
  writes: readonly DocumentWrite[],
  callers: number,
): Promise<Phase> {
  const table = plan.layouts.get(resourceKey(writes[0]!.resource))!.table;
  const before = await walLsn(observer);
  const statements = countStatements();
  try {
    await upsertAll(store, writes, callers);
  } finally {
    statements();
  }
  const walBytes = Number(
    (await observer.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS bytes', [before]))
      .rows[0]!.bytes,
  );
  return { table, walBytes, statements: statements() };
}

/**
 * The table's figures once its inserts (one per row: nothing is deleted) are all reported: a backend reports its
 * counters when its connection ends.
 */
async function tableFigures(observer: pg.Client, schema: string, table: string): Promise<TableFigures> {
  const { rows: counted } = await observer.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM ${table}`);
  const inserts = counted[0]!.rows;
  const deadline = Date.now() + STATS_WAIT_MS;
  for (;;) {
    await observer.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await observer.query<TableFigures>(
      'SELECT pg_relation_size(relid)::float8 AS heap, pg_indexes_size(relid)::float8 AS indexes, ' +
        'n_tup_ins::float8 AS inserted, n_tup_upd::float8 AS updated, n_dead_tup::float8 AS dead ' +
        'FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2',
      [schema, table],
    );
    const figures = rows[0]!;
    if (figures.inserted >= inserts) return figures;
    if (Date.now() > deadline) throw new Error(`${table}: only ${figures.inserted} of ${inserts} inserts reported`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(): Promise<void> {
  const bench = parseBenchStore(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test');
  const count = Number(process.argv[3] ?? 2_000);
  const callers = Number(process.argv[4] ?? 32);
  const fresh = await freshStore(bench);
  try {
    const { schema } = parsePostgresSpec(fresh.spec);
    await withPostgresClient(fresh.spec, async (observer) => {
      const store = await openStore(fresh.spec, registry);
      let phases: Phase[];
      try {
        const workload = await prepareWorkload(store, count);
        phases = [
          await measurePhase(store, observer, workload.studentWrites, callers),
          await measurePhase(store, observer, workload.associationWrites, callers),
        ];
      } finally {
        await store.close();
      }
      console.log(`${count} new items per resource, ${callers} concurrent callers`);
      console.log(
        'table | WAL bytes/upsert | statements/upsert | heap bytes | index bytes | inserted | updated | dead',
      );
      for (const phase of phases) {
        const figures = await tableFigures(observer, schema, phase.table);
        console.log(
          [
            phase.table,
            Math.round(phase.walBytes / count),
            (phase.statements / count).toFixed(2),
            figures.heap,
            figures.indexes,
            figures.inserted,
            figures.updated,
            figures.dead,
          ].join(' | '),
        );
      }
    });
  } finally {
    await fresh.dispose();
  }
}

await main();
