// The "before" side of the scale benchmark on SQLite: a copy of a prepared state without the query-field indexes
// (store/relational/query-field-sql.ts), so the same data is measured with and without them, side by side in the same
// rounds. The copy keeps the schema fingerprint, so the server opens it as current.
import { copyFileSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { getModelRegistry } from '../src/model/index.js';
import { queryFieldIndexesOf } from '../src/store/relational/query-field-sql.js';
import { planLayouts } from '../src/store/relational/schema-plan.js';
import { sqliteDialect } from '../src/store/sqlite/sqlite-dialect.js';
import type { BenchStore } from './bench-stores.js';
import { storeBytes, type PreparedState } from './scale-state.js';

const variantStores = new Map<BenchStore, BenchStore>();

function variantOf(store: BenchStore): BenchStore {
  const known = variantStores.get(store);
  if (known) return known;
  const variant: BenchStore = { ...store, label: `${store.label} without query-field indexes` };
  variantStores.set(store, variant);
  return variant;
}

function queryIndexNames(): string[] {
  return [...planLayouts(getModelRegistry()).layouts.values()].flatMap((layout) =>
    queryFieldIndexesOf(layout, sqliteDialect).map((index) => `${layout.table}_${index.suffix}`),
  );
}

// The copy and its VACUUM each need about the store's size again (52 GB for the 1M-student state).
const COPY_ROOM_FACTOR = 2.2;

/** Whether the store's disk can hold the index-free copy; at a state's size it often cannot, and then it is left out. */
export function roomForCopy(state: PreparedState): boolean {
  const file = state.spec.slice('sqlite:'.length);
  const disk = statfsSync(dirname(file));
  return disk.bavail * disk.bsize > COPY_ROOM_FACTOR * statSync(file).size;
}

export async function withoutQueryFieldIndexes(state: PreparedState): Promise<PreparedState> {
  const file = state.spec.slice('sqlite:'.length);
  const copy = file.replace(/\.sqlite$/, '-without-query-indexes.sqlite');
  copyFileSync(file, copy);
  const db = new Database(copy);
  try {
    for (const name of queryIndexNames()) db.exec(`DROP INDEX IF EXISTS ${name}`);
    db.exec('VACUUM');
  } finally {
    db.close();
  }
  const spec = `sqlite:${copy}`;
  const store = variantOf(state.store);
  const bytes = await storeBytes(store, spec);
  return {
    ...state,
    store,
    spec,
    storeBytesPerDocument: bytes / state.documents,
  };
}
