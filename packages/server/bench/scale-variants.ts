// The "before" side of the scale benchmark on SQLite: a copy of a prepared state without the query-field indexes
// (store/relational/query-field-sql.ts), so the same data is measured with and without them, side by side in the same
// rounds. The copy keeps the schema fingerprint, so the server opens it as current.
import { copyFileSync } from 'node:fs';
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
