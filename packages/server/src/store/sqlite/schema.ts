// Generates the SQLite schema from the model, tells whether a database holds it, and brings a database up to it:
// creates what is missing, refuses a table whose definition differs, and records a fingerprint of the schema.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ModelRegistry } from '../../model/index.js';
import type { MigrationOutcome, SchemaStatus } from '../store.js';
import { isAdminSchemaCurrent, migrateAdminSchema } from './admin/admin-schema.js';
import {
  CHANGE_VERSION_KEY,
  DESCRIPTOR_EDGE_TABLE,
  DOCUMENT_EDGE_TABLE,
  DOCUMENT_OWNER_TABLE,
  EDORG_CLOSURE_TABLE,
  EDORG_PARENT_TABLE,
  planLayouts,
  resourceKey,
  TRACKED_CHANGE_TABLE,
  type LayoutPlan,
} from '../relational/schema-plan.js';
import { DESCRIPTOR_TABLE, type AbstractIdentityLayout, type TableLayout } from '../relational/table-layout.js';

/** Bump when the generated DDL changes shape in a way the fingerprint alone should not hide. */
const SCHEMA_VERSION = 1;

const FINGERPRINT_KEY = 'schema_fingerprint';

interface SchemaObject {
  readonly type: 'table' | 'index';
  readonly name: string;
  /** The statement as SQLite keeps it in `sqlite_master` (without IF NOT EXISTS). */
  readonly sql: string;
}

function table(name: string, definition: string, options: { withoutRowid?: boolean } = {}): SchemaObject {
  const suffix = options.withoutRowid ? ' WITHOUT ROWID' : '';
  return { type: 'table', name, sql: `CREATE TABLE ${name} (${definition})${suffix}` };
}

function ifNotExists(sql: string): string {
  return sql.replace(/^CREATE (TABLE|INDEX)/, 'CREATE $1 IF NOT EXISTS');
}

function index(name: string, on: string, columns: string): SchemaObject {
  return { type: 'index', name, sql: `CREATE INDEX ${name} ON ${on} (${columns})` };
}

const documentReference = 'REFERENCES document (doc_id) ON DELETE CASCADE';

const metaTable = table('meta', 'key TEXT PRIMARY KEY, value', { withoutRowid: true });

const baseObjects: readonly SchemaObject[] = [
  metaTable,
  table(
    'resource_type',
    'resource_id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, endpoint TEXT NOT NULL, resource_name TEXT NOT NULL, ' +
      'UNIQUE (namespace, endpoint)',
  ),
  table('document', 'doc_id INTEGER PRIMARY KEY, resource_id INTEGER NOT NULL, uuid TEXT NOT NULL UNIQUE'),
  table(
    DOCUMENT_EDGE_TABLE,
    `from_doc INTEGER NOT NULL ${documentReference}, ` +
      'to_doc INTEGER NOT NULL REFERENCES document (doc_id) ON DELETE RESTRICT, PRIMARY KEY (from_doc, to_doc)',
    { withoutRowid: true },
  ),
  index(`${DOCUMENT_EDGE_TABLE}_to_doc`, DOCUMENT_EDGE_TABLE, 'to_doc'),
  // Descriptor references: no reverse index, because with one every commit rewrites a page per referenced descriptor
  // (measured: half the cost of a typical association write). Deleting a descriptor, which is rare, scans instead.
  // The RESTRICT key points at `descriptor`, so only descriptor deletes pay that check.
  table(
    DESCRIPTOR_EDGE_TABLE,
    `from_doc INTEGER NOT NULL ${documentReference}, ` +
      `to_doc INTEGER NOT NULL REFERENCES ${DESCRIPTOR_TABLE} (doc_id) ON DELETE RESTRICT, PRIMARY KEY (from_doc, to_doc)`,
    { withoutRowid: true },
  ),
  // Deletions (D) and key changes (K), each with its own change version; the old identity key finds a re-created
  // document, and the old securable values authorize ReadChanges once the live row is gone.
  table(
    TRACKED_CHANGE_TABLE,
    "change_version INTEGER PRIMARY KEY, resource_id INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('D', 'K')), " +
      'uuid TEXT NOT NULL, old_identity_key TEXT NOT NULL, old_key TEXT NOT NULL, new_key TEXT, ' +
      'old_securables TEXT NOT NULL, changed_at TEXT NOT NULL',
  ),
  index(`${TRACKED_CHANGE_TABLE}_resource`, TRACKED_CHANGE_TABLE, 'resource_id, kind, change_version'),
  // The ownership token of the client that created a document (OwnershipBased authorization, contract §8.4).
  table(DOCUMENT_OWNER_TABLE, `doc_id INTEGER PRIMARY KEY ${documentReference}, ownership_token INTEGER NOT NULL`),
  // The ed-org hierarchy: each ed-org's parents as its references name them, and every (ancestor-or-self, descendant)
  // pair, kept by the write path (storage design §3.6).
  table(
    EDORG_PARENT_TABLE,
    'child_id INTEGER NOT NULL, parent_id INTEGER NOT NULL, PRIMARY KEY (child_id, parent_id)',
    {
      withoutRowid: true,
    },
  ),
  table(
    EDORG_CLOSURE_TABLE,
    'source_id INTEGER NOT NULL, target_id INTEGER NOT NULL, PRIMARY KEY (source_id, target_id)',
    {
      withoutRowid: true,
    },
  ),
  index(`${EDORG_CLOSURE_TABLE}_target`, EDORG_CLOSURE_TABLE, 'target_id, source_id'),
  // Clients, tokens, vendors and applications have their own versioned migrations: admin/admin-schema.ts.
];

function resourceObjects(layout: TableLayout): SchemaObject[] {
  const { table: name, shared, columns } = layout;
  const typed = columns.map((column) => `${column.name} ${column.sqlType}${column.notNull ? ' NOT NULL' : ''}`);
  const definition = [
    `doc_id INTEGER PRIMARY KEY ${documentReference}`,
    ...(shared ? ['resource_id INTEGER NOT NULL'] : []),
    `identity_key TEXT NOT NULL${shared ? '' : ' UNIQUE'}`,
    ...typed,
    'change_version INTEGER NOT NULL',
    'last_modified TEXT NOT NULL',
    'body TEXT NOT NULL',
    ...(shared ? ['UNIQUE (resource_id, identity_key)'] : []),
  ];
  return [
    table(name, definition.join(', ')),
    index(`${name}_change_version`, name, 'change_version'),
    // In a shared table, a resource's rows in doc_id order come from this index (the rowid is its last column).
    ...(shared ? [index(`${name}_resource_id`, name, 'resource_id')] : []),
    ...columns.filter((column) => column.indexed).map((column) => index(`${name}_${column.name}`, name, column.name)),
  ];
}

function abstractIdentityObjects({ table: name }: AbstractIdentityLayout): SchemaObject[] {
  return [
    table(
      name,
      `identity_key TEXT PRIMARY KEY, doc_id INTEGER NOT NULL UNIQUE ${documentReference}, resource_id INTEGER NOT NULL`,
      { withoutRowid: true },
    ),
  ];
}

export interface SchemaPlan extends LayoutPlan {
  readonly objects: readonly SchemaObject[];
  readonly fingerprint: string;
}

/** The full schema for a model; resources without their own table (descriptors) share `descriptor`. */
export function planSchema(registry: ModelRegistry): SchemaPlan {
  const { layouts, abstractLayouts } = planLayouts(registry);
  const objects: SchemaObject[] = [...baseObjects];
  for (const layout of layouts.values())
    if (!objects.some((object) => object.name === layout.table)) objects.push(...resourceObjects(layout));
  for (const layout of abstractLayouts.values()) objects.push(...abstractIdentityObjects(layout));
  const names = new Set(objects.map((object) => object.name));
  if (names.size !== objects.length) throw new Error('Generated schema object names are not unique');
  const hash = createHash('sha256').update(String(SCHEMA_VERSION));
  for (const object of objects) hash.update('\n').update(object.sql);
  return { layouts, abstractLayouts, objects, fingerprint: hash.digest('hex') };
}

function readMeta(db: Database.Database, key: string): unknown {
  return db.prepare<[string], { value: unknown }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
}

function hasMetaTable(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() !== undefined;
}

/** Whether the database holds exactly this plan's schema, with the administrative tables up to date. */
export function schemaStatusOf(db: Database.Database, plan: SchemaPlan): SchemaStatus {
  if (!hasMetaTable(db)) return 'empty';
  return readMeta(db, FINGERPRINT_KEY) === plan.fingerprint && isAdminSchemaCurrent(db) ? 'current' : 'outdated';
}

/**
 * Creates missing tables and indexes, or fails when an existing table was made for a different definition (a model
 * change that needs a real migration); then the administrative tables and the resource types. Runs in one IMMEDIATE
 * transaction so concurrent migrations serialize on the write lock.
 */
export function migrateSchema(db: Database.Database, plan: SchemaPlan, registry: ModelRegistry): MigrationOutcome {
  return db
    .transaction((): MigrationOutcome => {
      const status = schemaStatusOf(db, plan);
      if (status === 'current') return 'current';
      db.exec(ifNotExists(metaTable.sql));
      if (readMeta(db, FINGERPRINT_KEY) !== plan.fingerprint) createObjects(db, plan);
      migrateAdminSchema(db);
      registerResourceTypes(db, registry);
      return status === 'empty' ? 'created' : 'upgraded';
    })
    .immediate();
}

function createObjects(db: Database.Database, plan: SchemaPlan): void {
  const existing = new Map(
    db
      .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => [row.name, row.sql]),
  );
  for (const object of plan.objects) {
    const current = existing.get(object.name);
    if (object.type === 'table' && current !== undefined && current !== object.sql)
      throw new Error(`Table ${object.name} does not match this model; the database needs a migration`);
    db.exec(ifNotExists(object.sql));
  }
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    FINGERPRINT_KEY,
    plan.fingerprint,
  );
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, 0)').run(CHANGE_VERSION_KEY);
}

/** Stable small ids per resource, kept in `resource_type` so they survive model additions. */
function registerResourceTypes(db: Database.Database, registry: ModelRegistry): void {
  const ids = readResourceTypes(db);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO resource_type (namespace, endpoint, resource_name) VALUES (?, ?, ?)',
  );
  for (const resource of registry.allResources)
    if (!ids.has(resourceKey(resource))) insert.run(resource.namespace, resource.endpoint, resource.resourceName);
}

/** The resource ids `migrateSchema` registered, by resource key. */
export function readResourceTypes(db: Database.Database): Map<string, number> {
  const rows = db
    .prepare<[], { resource_id: number; namespace: string; endpoint: string }>(
      'SELECT resource_id, namespace, endpoint FROM resource_type',
    )
    .all();
  return new Map(rows.map((row) => [resourceKey(row), row.resource_id]));
}
