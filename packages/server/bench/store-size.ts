// Where a generated state's bytes go (`npm run bench:store-size -w packages/server -- --students N --store …`): the
// store written by `gen-state` with the same size and seed, broken down per table and per index (SQLite's `dbstat`,
// PostgreSQL's relation sizes), each against the documents' JSON bodies as the scale benchmark counts them.
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { getModelRegistry } from '../src/model/index.js';
import { parsePostgresSpec } from '../src/store/postgres/connection-spec.js';
import { documentCount, stateDocumentGroups } from '../tools/generate-state/state-documents.js';
import { stateShape } from '../tools/generate-state/state-shape.js';
import { parseBenchStore, withPostgresClient } from './bench-stores.js';
import { bodiesBytes, storeBytes } from './scale-state.js';

/** The tables that hold document bodies: the resource tables and `descriptor`. */
const BODY_TABLES_SQL =
  "SELECT m.name FROM sqlite_schema m WHERE m.type = 'table' AND " +
  "EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'body')";

interface StoredObject {
  readonly name: string;
  readonly kind: 'table' | 'index';
  readonly bytes: number;
}

interface Breakdown {
  readonly objects: StoredObject[];
  /** The bodies as stored: what GET returns, `link` objects included. */
  readonly storedBodies: number;
}

/** SQLite: every b-tree's pages; free pages and the WAL are in the file size only. */
function sqliteBreakdown(file: string): Breakdown {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare<[], string>(BODY_TABLES_SQL).pluck().all();
    const storedBodies = tables.reduce(
      (sum, table) =>
        sum +
        db.prepare<[], number>(`SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) FROM ${table}`).pluck().get()!,
      0,
    );
    const objects = db
      .prepare<[], { name: string; type: string | null; bytes: number }>(
        'SELECT s.name, m.type, sum(s.pgsize) AS bytes FROM dbstat s ' +
          'LEFT JOIN sqlite_schema m ON m.name = s.name GROUP BY s.name',
      )
      .all()
      .map((row): StoredObject => ({
        name: row.name,
        kind: row.type === 'table' ? 'table' : 'index',
        bytes: row.bytes,
      }));
    return { objects, storedBodies };
  } finally {
    db.close();
  }
}

/** PostgreSQL: each table with its TOAST (and free space), each index on its own, in the spec's schema. */
async function postgresBreakdown(spec: string): Promise<Breakdown> {
  const schema = parsePostgresSpec(spec).schema;
  return withPostgresClient(spec, async (client) => {
    const { rows } = await client.query<{ name: string; kind: string; bytes: string }>(
      "SELECT c.relname AS name, c.relkind AS kind, CASE c.relkind WHEN 'r' THEN pg_table_size(c.oid) " +
        'ELSE pg_relation_size(c.oid) END AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace ' +
        "WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')",
      [schema],
    );
    const objects = rows.map((row): StoredObject => ({
      name: row.name,
      kind: row.kind === 'r' ? 'table' : 'index',
      bytes: Number(row.bytes),
    }));
    const tables = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'body'",
      [schema],
    );
    const sums = tables.rows.map(({ name }) => `SELECT coalesce(sum(octet_length(body)), 0) AS bytes FROM ${name}`);
    const stored = await client.query<{ bytes: string }>(
      `SELECT sum(bytes) AS bytes FROM (${sums.join(' UNION ALL ')}) b`,
    );
    return { objects, storedBodies: Number(stored.rows[0]?.bytes ?? 0) };
  });
}

const { values } = parseArgs({
  options: {
    students: { type: 'string' },
    store: { type: 'string' },
    seed: { type: 'string', default: '1' },
    top: { type: 'string', default: '15' },
  },
});
if (values.students === undefined || values.store === undefined)
  throw new Error('Usage: bench:store-size -- --students N --store sqlite:<file> | postgres://… [--seed 1] [--top 15]');
const store = parseBenchStore(values.store);
const groups = stateDocumentGroups(stateShape(Number(values.students), Number(values.seed)), getModelRegistry());
const [documents, bodies] = [documentCount(groups), bodiesBytes(groups)];
const total = await storeBytes(store, values.store);
const { objects, storedBodies } =
  store.kind === 'sqlite'
    ? sqliteBreakdown(values.store.slice('sqlite:'.length))
    : await postgresBreakdown(values.store);
objects.sort((a, b) => b.bytes - a.bytes);

const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
const ofBodies = (bytes: number) => (bytes / bodies).toFixed(3);
const lines = [
  `${documents} documents, JSON bodies ${mb(bodies)} MB, store ${mb(total)} MB: ` +
    `${(total / documents).toFixed(0)} bytes a document, ${(total / bodies).toFixed(2)} × the bodies; ` +
    `the bodies as stored (with their links) ${mb(storedBodies)} MB, ${ofBodies(storedBodies)} × the bodies`,
  '',
  '| object | kind | MB | ÷ bodies |',
  '| --- | --- | ---: | ---: |',
  ...objects
    .slice(0, Number(values.top))
    .map((object) => `| ${object.name} | ${object.kind} | ${mb(object.bytes)} | ${ofBodies(object.bytes)} |`),
];
for (const [kind, label] of [
  ['table', 'all tables'],
  ['index', 'all indexes'],
] as const) {
  const bytes = objects.filter((object) => object.kind === kind).reduce((sum, object) => sum + object.bytes, 0);
  lines.push(`| ${label} | | ${mb(bytes)} | ${ofBodies(bytes)} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
