// The raw node-postgres ceiling for the PostgreSQL store's row shapes, in the store's own generated schema (same
// tables, keys and indexes): one transaction per document (BEGIN, the document registry row, the resource row, its
// reference and descriptor edges, COMMIT) and point reads by uuid, run by as many concurrent callers as the store's
// pool has connections. Each figure is the median of the rounds.
// Run: `npx tsx packages/server/bench/postgres-ceiling.ts postgres://user@host:port/db [documents] [rounds]`.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { resourceKey } from '../src/store/relational/schema-plan.js';
import { parsePostgresSpec } from '../src/store/postgres/connection-spec.js';
import { createPool, inTransaction } from '../src/store/postgres/pool.js';
import { migrateSchema, planPostgresSchema, readResourceTypes } from '../src/store/postgres/schema.js';
import type { DocumentWrite } from '../src/store/store.js';
import { freshStore, parseBenchStore } from './bench-stores.js';
import {
  ceilingOperations,
  edgeCounts,
  prepareStandaloneWorkload,
  range,
  readTarget,
  READS_PER_WRITE,
  registry,
  rowValuesOf,
  type CeilingRow,
} from './ceiling-workload.js';
import { median } from './statistics.js';

export interface PostgresCeilingOptions {
  /** Documents written per resource; four times as many reads. */
  readonly count?: number;
  readonly rounds?: number;
}

const plan = planPostgresSchema(registry);

function tableOf(write: DocumentWrite) {
  const layout = plan.layouts.get(resourceKey(write.resource));
  if (!layout) throw new Error(`No table for ${write.resource.resourceName}`);
  return layout;
}

/** Runs `operation` for every index with `concurrency` callers at once; operations per second. */
async function concurrentRate(
  indexes: readonly number[],
  concurrency: number,
  operation: (index: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const caller = async (): Promise<void> => {
    while (next < indexes.length) await operation(indexes[next++]!);
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, caller));
  return indexes.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** Rows the writes reference: placeholder documents, and descriptors for descriptor edges. */
async function placeholders(pool: pg.Pool, documents: number, descriptors: number) {
  const insert = async (count: number): Promise<number[]> => {
    const uuids = Array.from({ length: count }, () => randomUUID());
    const { rows } = await pool.query<{ doc_id: number }>(
      'INSERT INTO document (resource_id, uuid) SELECT 0, unnest($1::text[]) RETURNING doc_id',
      [uuids],
    );
    return rows.map((row) => row.doc_id);
  };
  const descriptorIds = await insert(descriptors);
  await pool.query(
    'INSERT INTO descriptor (doc_id, resource_id, identity_key, namespace, code_value, short_description, ' +
      "change_version, last_modified, body) SELECT id, 0, 'target-' || id, 'n', 'c', 's', 0, 'now', '{}' " +
      'FROM unnest($1::bigint[]) AS id',
    [descriptorIds],
  );
  return { documents: await insert(documents), descriptors: descriptorIds };
}

/** Writes one document in its own transaction: registry row, resource row, edges; returns its doc_id. */
function documentWriter(pool: pg.Pool, writes: readonly DocumentWrite[], resourceId: number) {
  const layout = tableOf(writes[0]!);
  const columns = ['doc_id', 'identity_key', ...layout.columns.map((column) => column.name)];
  columns.push('change_version', 'last_modified', 'body');
  const insertRow = {
    name: `bench-row-${layout.table}`,
    text: `INSERT INTO ${layout.table} (${columns.join(', ')}) VALUES (${columns.map((_, at) => `$${at + 1}`).join(', ')})`,
  };
  const rows = writes.map((write) => ({
    uuid: randomUUID(),
    values: rowValuesOf(write, layout),
    body: JSON.stringify(write.body),
  }));
  return async (index: number, documentTargets: readonly number[], descriptorTargets: readonly number[]) =>
    inTransaction(pool, async (client) => {
      const { uuid, values, body } = rows[index]!;
      const registered = await client.query<{ doc_id: number }>({
        name: 'bench-document',
        text: 'INSERT INTO document (resource_id, uuid) VALUES ($1, $2) RETURNING doc_id',
        values: [resourceId, uuid],
      });
      const docId = registered.rows[0]!.doc_id;
      await client.query({ ...insertRow, values: [docId, ...values, docId, 'now', body] });
      await client.query({
        name: 'bench-ref-edges',
        text: 'INSERT INTO ref_edge (from_doc, to_doc) SELECT $1, unnest($2::bigint[])',
        values: [docId, documentTargets],
      });
      await client.query({
        name: 'bench-descriptor-edges',
        text: 'INSERT INTO descriptor_edge (from_doc, to_doc) SELECT $1, unnest($2::bigint[])',
        values: [docId, descriptorTargets],
      });
      return { docId, uuid };
    });
}

/** The ceiling in the schema of `spec` (created here; the caller drops it). */
export async function runPostgresCeilingBenchmark(
  spec: string,
  options: PostgresCeilingOptions = {},
): Promise<CeilingRow[]> {
  const count = options.count ?? 5_000;
  const rounds = options.rounds ?? 5;
  const connection = parsePostgresSpec(spec);
  const workload = await prepareStandaloneWorkload(count);
  const pool = createPool(connection);
  try {
    await migrateSchema(pool, connection.schema, plan, registry);
    const resourceIds = await readResourceTypes(pool);
    const idOf = (write: DocumentWrite) => resourceIds.get(resourceKey(write.resource))!;
    const studentCounts = edgeCounts(workload.studentWrites[0]!);
    const studentTargets = await placeholders(pool, studentCounts.documents, studentCounts.descriptors);
    const associationCounts = edgeCounts(workload.associationWrites[0]!);
    // An association references its own student plus targets all associations share.
    const associationTargets = await placeholders(pool, associationCounts.documents - 1, associationCounts.descriptors);
    const writeStudent = documentWriter(pool, workload.studentWrites, idOf(workload.studentWrites[0]!));
    const writeAssociation = documentWriter(pool, workload.associationWrites, idOf(workload.associationWrites[0]!));
    const written: { docId: number; uuid: string }[] = [];
    const read = {
      name: 'bench-read',
      text:
        'SELECT d.uuid, r.body, r.change_version, r.last_modified FROM document d ' +
        `JOIN ${tableOf(workload.studentWrites[0]!).table} r ON r.doc_id = d.doc_id WHERE d.uuid = $1`,
    };
    const operations = [
      async (index: number) => {
        written[index] = await writeStudent(index, studentTargets.documents, studentTargets.descriptors);
      },
      (index: number) =>
        writeAssociation(
          index,
          [written[index]!.docId, ...associationTargets.documents],
          associationTargets.descriptors,
        ),
      (index: number) => pool.query({ ...read, values: [written[index]!.uuid] }),
    ];
    const measured: number[][] = [[], [], []];
    const perRound = Math.floor(count / rounds);
    for (let round = 0; round < rounds; round++) {
      const writes = range(round * perRound, (round + 1) * perRound);
      const reads = range(0, perRound * READS_PER_WRITE).map((index) => readTarget(index, (round + 1) * perRound));
      for (const [measure, indexes] of [writes, writes, reads].entries())
        measured[measure]!.push(await concurrentRate(indexes, connection.poolSize, operations[measure]!));
    }
    return ceilingOperations(workload).map((operation, index) => ({
      operation,
      rawPerSecond: median(measured[index]!),
    }));
  } finally {
    await pool.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const store = parseBenchStore(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/test');
  const count = Number(process.argv[3] ?? 5_000);
  const rounds = Number(process.argv[4] ?? 5);
  const fresh = await freshStore(store);
  try {
    const rows = await runPostgresCeilingBenchmark(fresh.spec, { count, rounds });
    console.log(`${count} documents per resource in ${rounds} rounds (median round), one transaction per write`);
    for (const row of rows) console.log(`${row.operation}: ${row.rawPerSecond.toFixed(0)}/s`);
  } finally {
    await fresh.dispose();
  }
}
