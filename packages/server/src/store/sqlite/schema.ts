// Generates the SQLite schema from the model, tells whether a database holds it, and brings a database up to it:
// creates what is missing, adds the nullable typed columns a model change added to an existing table (filled from the
// stored bodies), refuses any other difference, and records a fingerprint of the schema.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ExtensionModel, ModelRegistry } from '../../model/index.js';
import { recordsExtensionsOf } from '../extension-records.js';
import type { MigrationOutcome, SchemaStatus } from '../store.js';
import { queryFieldIndexesOf } from '../relational/query-field-sql.js';
import {
  SECURABLES_INDEX_SUFFIX,
  securablesIndexColumns,
  singleColumnIndexes,
} from '../relational/securables-index.js';
import { sqliteDialect } from './sqlite-dialect.js';
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
import {
  BACKFILL_BATCH_ROWS,
  backfillValues,
  columnsToAdd,
  SchemaMismatchError,
  type ColumnDefinition,
  type PlannedColumn,
} from '../relational/schema-upgrade.js';
import {
  DESCRIPTOR_TABLE,
  type AbstractIdentityLayout,
  type TableLayout,
  type TypedColumn,
} from '../relational/table-layout.js';

/** Bump when the generated DDL changes shape in a way the fingerprint alone should not hide. */
const SCHEMA_VERSION = 1;

const FINGERPRINT_KEY = 'schema_fingerprint';
/** The optional extensions the store serves, comma-separated (recorded by each migration). */
const SERVED_EXTENSIONS_KEY = 'served_extensions';
/** The extensions added to the store from their folders (admin schema step 6). */
const EXTENSION_MODEL_TABLE = 'extension_model';

interface SchemaObject {
  readonly type: 'table' | 'index';
  readonly name: string;
  /** The statement as SQLite keeps it in `sqlite_master` (without IF NOT EXISTS). */
  readonly sql: string;
  /** A table's columns and constraints, each as its text in the statement. */
  readonly columns?: readonly PlannedColumn[];
}

const TABLE_CONSTRAINT = /^(UNIQUE|PRIMARY KEY|CHECK|FOREIGN KEY) /;

/** The column definitions and constraints of a CREATE TABLE's list (commas inside parentheses do not split). */
function definitionsOf(list: string): ColumnDefinition[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < list.length; at++) {
    if (list[at] === '(') depth++;
    else if (list[at] === ')') depth--;
    else if (list[at] === ',' && depth === 0) {
      items.push(list.slice(start, at).trim());
      start = at + 1;
    }
  }
  items.push(list.slice(start).trim());
  return items.map((item) => ({ name: TABLE_CONSTRAINT.test(item) ? item : item.split(' ')[0]!, definition: item }));
}

function createTablePrefix(name: string): string {
  return `CREATE TABLE ${name} (`;
}

function table(
  name: string,
  definition: string,
  options: { withoutRowid?: boolean } = {},
  typedColumns: readonly TypedColumn[] = [],
): SchemaObject {
  const suffix = options.withoutRowid ? ' WITHOUT ROWID' : '';
  const typed = new Map(typedColumns.map((column) => [column.name, column]));
  const columns = definitionsOf(definition).map((column): PlannedColumn => {
    const writtenBy = typed.get(column.name);
    return writtenBy === undefined ? column : { ...column, typed: writtenBy };
  });
  return { type: 'table', name, sql: `${createTablePrefix(name)}${definition})${suffix}`, columns };
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

/** On the expression alone: the rowid (doc_id) ends every index, so a filtered page reads rows in doc_id order. */
function queryFieldIndexes(layout: TableLayout): SchemaObject[] {
  return queryFieldIndexesOf(layout, sqliteDialect).map(({ suffix, expression, where }) => {
    const name = `${layout.table}_${suffix}`;
    const sql = `CREATE INDEX ${name} ON ${layout.table} (${expression})${where === undefined ? '' : ` WHERE ${where}`}`;
    return { type: 'index', name, sql };
  });
}

function securablesIndex(layout: TableLayout): SchemaObject[] {
  const columns = securablesIndexColumns(layout).map((column) => column.name);
  if (columns.length === 0) return [];
  return [index(`${layout.table}_${SECURABLES_INDEX_SUFFIX}`, layout.table, columns.join(', '))];
}

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
    table(name, definition.join(', '), {}, columns),
    index(`${name}_change_version`, name, 'change_version'),
    // In a shared table, a resource's rows in doc_id order come from this index (the rowid is its last column).
    ...(shared ? [index(`${name}_resource_id`, name, 'resource_id')] : []),
    ...singleColumnIndexes(layout).map((column) => index(`${name}_${column.name}`, name, column.name)),
    ...securablesIndex(layout),
    ...queryFieldIndexes(layout),
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

/** The optional extensions recorded by the last migration; undefined for a store without a schema. */
export function servedExtensionsOf(db: Database.Database): string[] | undefined {
  if (!hasMetaTable(db)) return undefined;
  const recorded = readMeta(db, SERVED_EXTENSIONS_KEY);
  return typeof recorded === 'string' ? recorded.split(',').filter((name) => name !== '') : [];
}

/** The models of the extensions added to the store, as its migrations recorded them; undefined without a schema. */
export function addedExtensionsOf(db: Database.Database): ExtensionModel[] | undefined {
  if (!hasMetaTable(db)) return undefined;
  if (!hasTable(db, EXTENSION_MODEL_TABLE)) return [];
  return db
    .prepare<[], string>(`SELECT definition FROM ${EXTENSION_MODEL_TABLE} ORDER BY namespace`)
    .pluck()
    .all()
    .map((definition) => JSON.parse(definition) as ExtensionModel);
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function hasMetaTable(db: Database.Database): boolean {
  return hasTable(db, 'meta');
}

function recordsExtensions(db: Database.Database, registry: ModelRegistry): boolean {
  return recordsExtensionsOf(servedExtensionsOf(db) ?? [], addedExtensionsOf(db) ?? [], registry);
}

function recordExtensions(db: Database.Database, registry: ModelRegistry): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    SERVED_EXTENSIONS_KEY,
    registry.extensions.join(','),
  );
  const insert = db.prepare(
    `INSERT INTO ${EXTENSION_MODEL_TABLE} (namespace, definition) VALUES (?, ?) ` +
      'ON CONFLICT (namespace) DO UPDATE SET definition = excluded.definition',
  );
  for (const model of registry.addedExtensions) insert.run(model.project.namespace, JSON.stringify(model));
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
      // An extension adding only `_ext` members changes no table, yet the store must record that it serves it.
      if (status === 'current' && recordsExtensions(db, registry)) return 'current';
      db.exec(ifNotExists(metaTable.sql));
      if (readMeta(db, FINGERPRINT_KEY) !== plan.fingerprint) createObjects(db, plan);
      migrateAdminSchema(db);
      registerResourceTypes(db, registry);
      recordExtensions(db, registry);
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
  // Every table is checked before any is changed, so a refusal costs no backfill.
  const additions = plan.objects.flatMap((object) => {
    const current = existing.get(object.name);
    if (object.type !== 'table' || current === undefined || current === object.sql) return [];
    const added = columnsToAdd(
      { name: object.name, columns: object.columns ?? [] },
      existingDefinitions(object, current),
    );
    return added.length === 0 ? [] : [{ table: object.name, added }];
  });
  for (const { table: name, added } of additions) addColumns(db, name, added);
  dropRetiredIndexes(db, plan);
  for (const object of plan.objects) db.exec(ifNotExists(object.sql));
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    FINGERPRINT_KEY,
    plan.fingerprint,
  );
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, 0)').run(CHANGE_VERSION_KEY);
}

/**
 * Drops the indexes of resource tables that this plan does not make (an earlier model's or plan's query-field
 * indexes), leaving those of constraints (keys, which have no statement) alone.
 */
function dropRetiredIndexes(db: Database.Database, plan: SchemaPlan): void {
  const resourceTables = new Set([...plan.layouts.values()].map((layout) => layout.table));
  const planned = new Set(plan.objects.map((object) => object.name));
  const indexes = db
    .prepare<[], { name: string; tbl_name: string }>(
      "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
    )
    .all();
  for (const { name, tbl_name: table } of indexes)
    if (resourceTables.has(table) && !planned.has(name)) db.exec(`DROP INDEX ${name}`);
}

/** The columns of an existing table, from its statement; refuses one made with other table options. */
function existingDefinitions(planned: SchemaObject, sql: string): ColumnDefinition[] {
  const prefix = createTablePrefix(planned.name);
  const suffix = planned.sql.slice(planned.sql.lastIndexOf(')'));
  if (!sql.startsWith(prefix) || !sql.endsWith(suffix))
    throw new SchemaMismatchError(planned.name, 'its table options differ');
  return definitionsOf(sql.slice(prefix.length, sql.length - suffix.length));
}

/** Adds the columns, then fills them batch by batch from each row's stored body (inside the migration's transaction). */
function addColumns(
  db: Database.Database,
  name: string,
  added: readonly (PlannedColumn & { typed: TypedColumn })[],
): void {
  for (const column of added) db.exec(`ALTER TABLE ${name} ADD COLUMN ${column.definition}`);
  const batch = db.prepare<[number], { doc_id: number; body: string }>(
    `SELECT doc_id, body FROM ${name} WHERE doc_id > ? ORDER BY doc_id LIMIT ${BACKFILL_BATCH_ROWS}`,
  );
  const assignments = added.map((column) => `${column.name} = ?`).join(', ');
  const update = db.prepare(`UPDATE ${name} SET ${assignments} WHERE doc_id = ?`);
  const typed = added.map((column) => column.typed);
  for (let rows = batch.all(Number.MIN_SAFE_INTEGER); rows.length > 0; rows = batch.all(rows.at(-1)!.doc_id)) {
    const values = backfillValues(
      typed,
      rows.map((row) => row.body),
    );
    rows.forEach((row, at) => update.run(...values.map((column) => column[at]), row.doc_id));
  }
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
