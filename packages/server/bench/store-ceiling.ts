// The SQLite store against the raw better-sqlite3 ceiling for the same row shapes, in one run: plain prepared INSERTs
// over the same schema and connection settings (commit per row, WAL, synchronous=NORMAL) and point reads by uuid, then
// the Store's upsert and get-by-id of the same documents. Rounds alternate raw and store so machine noise hits both;
// each figure is the median round.
// Run: `npx tsx packages/server/bench/store-ceiling.ts [documents per resource] [rounds]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Database from 'better-sqlite3';
import { openConnection } from '../src/store/sqlite/connection.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { tableLayoutOf } from '../src/store/relational/table-layout.js';
import type { DocumentWrite, Store } from '../src/store/store.js';
import {
  ceilingOperations,
  edgeCounts,
  prepareWorkload,
  range,
  readTarget,
  READS_PER_WRITE,
  rowValuesOf,
  students,
  type CeilingRow,
  type Workload,
} from './ceiling-workload.js';
import { median } from './statistics.js';

export interface StoreCeilingOptions {
  /** Documents written per resource; four times as many reads. */
  readonly count?: number;
  /** Rounds the work is split into, alternating which side goes first. */
  readonly rounds?: number;
  /** Where the two database files go; a fresh temporary directory by default. */
  readonly directory?: string;
}

/** The operations both sides run, by document index. */
interface Side {
  writeStudent(index: number): unknown;
  writeAssociation(index: number): unknown;
  readStudent(index: number): unknown;
}

/** Plain prepared statements over the same schema: no resolution, no probes, no JSON work while timed. */
function rawSide(db: Database.Database, workload: Workload): Side {
  const insertDocument = db.prepare('INSERT INTO document (doc_id, resource_id, uuid) VALUES (?, ?, ?)');
  const insertEdge = db.prepare('INSERT INTO ref_edge (from_doc, to_doc) VALUES (?, ?)');
  const insertDescriptorEdge = db.prepare('INSERT INTO descriptor_edge (from_doc, to_doc) VALUES (?, ?)');
  const insertDescriptor = db.prepare(
    'INSERT INTO descriptor (doc_id, resource_id, identity_key, namespace, code_value, short_description, ' +
      "change_version, last_modified, body) VALUES (?, 0, ?, 'n', 'c', 's', 0, 'now', '{}')",
  );
  let nextDocId = 1;
  const placeholders = (count: number, asDescriptor: boolean) =>
    Array.from({ length: count }, () => {
      const docId = nextDocId++;
      insertDocument.run(docId, 0, `target-${docId}`);
      if (asDescriptor) insertDescriptor.run(docId, `target-${docId}`);
      return docId;
    });
  const edgeTargets = (counts: { documents: number; descriptors: number }) => ({
    documents: placeholders(counts.documents, false),
    descriptors: placeholders(counts.descriptors, true),
  });
  const studentTargets = edgeTargets(edgeCounts(workload.studentWrites[0]!));
  const associationCounts = edgeCounts(workload.associationWrites[0]!);
  // An association references its own student plus targets all associations share.
  const associationTargets = edgeTargets({ ...associationCounts, documents: associationCounts.documents - 1 });

  function rowsOf(writes: readonly DocumentWrite[], resourceId: number) {
    const layout = tableLayoutOf(writes[0]!.resource);
    const all = ['doc_id', 'identity_key', ...layout.columns.map((column) => column.name)];
    all.push('change_version', 'last_modified', 'body');
    const insert = db.prepare(
      `INSERT INTO ${layout.table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})`,
    );
    const rows = writes.map((write) => {
      const docId = nextDocId++;
      const values = [docId, ...rowValuesOf(write), docId, 'now', JSON.stringify(write.body)];
      return { docId, uuid: docId.toString(16).padStart(32, '0'), values };
    });
    return { rows, insertRow: (index: number) => insert.run(rows[index]!.values), resourceId };
  }

  const studentRows = rowsOf(workload.studentWrites, 1);
  const associationRows = rowsOf(workload.associationWrites, 2);
  const writeDocument = (table: ReturnType<typeof rowsOf>, index: number, targets: ReturnType<typeof edgeTargets>) => {
    const { docId, uuid } = table.rows[index]!;
    insertDocument.run(docId, table.resourceId, uuid);
    table.insertRow(index);
    for (const target of targets.documents) insertEdge.run(docId, target);
    for (const target of targets.descriptors) insertDescriptorEdge.run(docId, target);
  };
  const writeStudent = db.transaction((index: number) => writeDocument(studentRows, index, studentTargets));
  const writeAssociation = db.transaction((index: number) => {
    writeDocument(associationRows, index, associationTargets);
    insertEdge.run(associationRows.rows[index]!.docId, studentRows.rows[index]!.docId);
  });
  const read = db.prepare(
    'SELECT d.uuid, r.body, r.change_version, r.last_modified FROM document d ' +
      `JOIN ${tableLayoutOf(students).table} r ON r.doc_id = d.doc_id WHERE d.uuid = ?`,
  );
  return {
    writeStudent: (index) => writeStudent.immediate(index),
    writeAssociation: (index) => writeAssociation.immediate(index),
    readStudent: (index) => read.get(studentRows.rows[index]!.uuid),
  };
}

function storeSide(store: Store, workload: Workload): Side {
  const studentIds: string[] = [];
  return {
    writeStudent: async (index) => {
      studentIds[index] = (await store.upsert(workload.studentWrites[index]!)).id;
    },
    writeAssociation: (index) => store.upsert(workload.associationWrites[index]!),
    readStudent: (index) => store.get(students, studentIds[index]!),
  };
}

/** Operations per second over `indexes`, awaiting each operation that returns a promise. */
async function rate(indexes: readonly number[], operation: (index: number) => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (const index of indexes) await operation(index);
  return indexes.length / (Number(process.hrtime.bigint() - start) / 1e9);
}

export async function runStoreCeilingBenchmark(options: StoreCeilingOptions = {}): Promise<CeilingRow[]> {
  const count = options.count ?? 5_000;
  const rounds = options.rounds ?? 5;
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'store-ceiling-'));
  try {
    const rawFile = join(directory, 'raw.db');
    const schemaOnly = new SqliteStore(rawFile);
    await schemaOnly.migrate();
    await schemaOnly.open();
    await schemaOnly.close();
    const store = new SqliteStore(join(directory, 'store.db'));
    await store.migrate();
    await store.open();
    const workload = await prepareWorkload(store, count);
    // The same connection settings as the store, so the ratio shows the store's own work.
    const db = openConnection(rawFile);
    const sides = { raw: rawSide(db, workload), store: storeSide(store, workload) };

    const measured = { raw: [[], [], []] as number[][], store: [[], [], []] as number[][] };
    const perRound = Math.floor(count / rounds);
    for (let round = 0; round < rounds; round++) {
      const written = range(round * perRound, (round + 1) * perRound);
      const reads = range(0, perRound * READS_PER_WRITE).map((index) => readTarget(index, (round + 1) * perRound));
      const order = round % 2 === 0 ? (['raw', 'store'] as const) : (['store', 'raw'] as const);
      for (const [measure, indexes, operation] of [
        [0, written, 'writeStudent'],
        [1, written, 'writeAssociation'],
        [2, reads, 'readStudent'],
      ] as const) {
        for (const side of order) measured[side][measure]!.push(await rate(indexes, sides[side][operation]));
      }
    }
    db.close();
    await store.close();
    return ceilingOperations(workload).map((operation, index) => ({
      operation,
      rawPerSecond: median(measured.raw[index]!),
      storePerSecond: median(measured.store[index]!),
    }));
  } finally {
    if (!options.directory) rmSync(directory, { recursive: true, force: true });
  }
}

export function formatCeilingTable(rows: readonly CeilingRow[]): string {
  return [
    '| operation | raw better-sqlite3 ops/s | store ops/s | store µs/op | store / raw |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(({ operation, rawPerSecond, storePerSecond = NaN }) => {
      const store = `${storePerSecond.toFixed(0)} | ${(1e6 / storePerSecond).toFixed(1)}`;
      return `| ${operation} | ${rawPerSecond.toFixed(0)} | ${store} | ${(storePerSecond / rawPerSecond).toFixed(2)} |`;
    }),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const count = Number(process.argv[2] ?? 5_000);
  const rounds = Number(process.argv[3] ?? 5);
  const rows = await runStoreCeilingBenchmark({ count, rounds });
  console.log(
    `node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}, ${new Date().toISOString()}`,
  );
  console.log(`${count} documents per resource in ${rounds} rounds (median round), commit per write, WAL, NORMAL`);
  console.log(formatCeilingTable(rows));
}
