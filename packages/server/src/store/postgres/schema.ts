// Generates the PostgreSQL schema from the model's logical plan (relational/schema-plan.ts), tells whether a database
// schema holds it, and brings one up to it under an advisory lock: creates what is missing, adds the nullable typed
// columns a model change added to an existing table (filled from the stored bodies), refuses any other column
// difference, records a fingerprint of the DDL, registers the resource types.
//
// Types: SQLite INTEGER → bigint (resource ids → integer, as `resource_type` hands them out), REAL → double precision,
// TEXT → text; the key columns (identity keys, uuids) are COLLATE "C": the application folds case itself, so they
// compare bytewise, which is also the fastest index order. Other text keeps the database's collation, so lower() on
// it folds beyond ASCII. Identifiers longer
// than PostgreSQL's 63 bytes would be cut, and cut names collide (two long reference columns of one table), so they
// are shortened with a hash; the plan's layouts carry these physical names, so SQL must take its table and column
// names from this plan (through the catalog), never from relational/table-layout.ts directly.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ExtensionModel, ModelRegistry } from '../../model/index.js';
import { recordsExtensionsOf } from '../extension-records.js';
import type { MigrationOutcome, SchemaStatus } from '../store.js';
import { queryFieldIndexesOf } from '../relational/query-field-sql.js';
import {
  SECURABLES_INDEX_SUFFIX,
  securablesIndexColumns,
  singleColumnIndexes,
} from '../relational/securables-index.js';
import { postgresDialect } from './postgres-dialect.js';
import {
  CHANGE_VERSION_KEY,
  DESCRIPTOR_EDGE_TABLE,
  DOCUMENT_EDGE_TABLE,
  DOCUMENT_OWNER_TABLE,
  DOCUMENT_TABLE,
  EDORG_CLOSURE_TABLE,
  EDORG_PARENT_TABLE,
  planLayouts,
  resourceKey,
  RESOURCE_TYPE_TABLE,
  TRACKED_CHANGE_TABLE,
  type LayoutPlan,
} from '../relational/schema-plan.js';
import {
  BACKFILL_BATCH_ROWS,
  backfillValues,
  columnsToAdd,
  type ColumnDefinition,
  type PlannedTable,
} from '../relational/schema-upgrade.js';
import {
  DESCRIPTOR_TABLE,
  type AbstractIdentityLayout,
  type SqlType,
  type TableLayout,
  type TypedColumn,
} from '../relational/table-layout.js';
import { ADMIN_SCHEMA_VERSION, ADMIN_SCHEMA_VERSION_KEY, migrateAdminSchema } from './admin/admin-schema.js';
import { quoteIdentifier } from './connection-spec.js';
import { inTransaction } from './pool.js';

/** Bump when the generated DDL changes shape in a way the fingerprint alone should not hide. */
const SCHEMA_VERSION = 1;

export const META_TABLE = 'meta';
const FINGERPRINT_KEY = 'schema_fingerprint';
/** The optional extensions the store serves, comma-separated (recorded by each migration). */
const SERVED_EXTENSIONS_KEY = 'served_extensions';
/** The extensions added to the store from their folders (admin schema step 5). */
const EXTENSION_MODEL_TABLE = 'extension_model';
/** Identifies this application's advisory locks (the second key is the schema's). */
const MIGRATION_LOCK_CLASS = 0x45644669;
const MAX_IDENTIFIER_BYTES = 63;

/** `key` is text COLLATE "C". */
type ColumnType = 'bigint' | 'integer' | 'double precision' | 'text' | 'key';

interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull: boolean;
  /** Key, reference or default clauses after the type. */
  readonly clause?: string;
  /** The layout's typed column this column stores (resource tables). */
  readonly typed?: TypedColumn;
}

interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly constraints: readonly string[];
}

interface Index {
  readonly name: string;
  readonly table: string;
  readonly columns: string;
  /** Columns carried in the entries, not searched: `INCLUDE (…)`, comma-separated. */
  readonly include?: string;
  /** A partial index's condition. */
  readonly where?: string;
}

/** The physical name of a logical identifier: itself, or when too long its start and a hash (names are ASCII). */
export function pgIdentifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_BYTES - hash.length - 1)}_${hash}`;
}

const columnTypes: Record<SqlType, ColumnType> = { INTEGER: 'bigint', REAL: 'double precision', TEXT: 'text' };

const column = (name: string, type: ColumnType, notNull: boolean, clause?: string): Column =>
  clause === undefined
    ? { name: pgIdentifier(name), type, notNull }
    : { name: pgIdentifier(name), type, notNull, clause };
const table = (name: string, columns: readonly Column[], constraints: readonly string[] = []): Table => ({
  name: pgIdentifier(name),
  columns,
  constraints,
});
const index = (table: string, columns: readonly string[]): Index => ({
  name: pgIdentifier(`${table}_${columns[0]!}`),
  table: pgIdentifier(table),
  columns: columns.map(pgIdentifier).join(', '),
});

const documentReference = `REFERENCES ${DOCUMENT_TABLE} (doc_id) ON DELETE CASCADE`;

const metaTable = table(META_TABLE, [
  column('key', 'key', true, 'PRIMARY KEY'),
  // Numbers (the change-version counter, schema versions) in `value`, the fingerprint in `text_value`.
  column('value', 'bigint', false),
  column('text_value', 'text', false),
]);

function edgeTable(name: string, target: string): Table {
  return table(
    name,
    [
      column('from_doc', 'bigint', true, documentReference),
      column('to_doc', 'bigint', true, `REFERENCES ${target} (doc_id) ON DELETE RESTRICT`),
    ],
    ['PRIMARY KEY (from_doc, to_doc)'],
  );
}

function pairTable(name: string, first: string, second: string): Table {
  return table(
    name,
    [column(first, 'bigint', true), column(second, 'bigint', true)],
    [`PRIMARY KEY (${first}, ${second})`],
  );
}

const baseTables: readonly Table[] = [
  metaTable,
  table(
    RESOURCE_TYPE_TABLE,
    [
      column('resource_id', 'integer', true, 'GENERATED ALWAYS AS IDENTITY PRIMARY KEY'),
      column('namespace', 'text', true),
      column('endpoint', 'text', true),
      column('resource_name', 'text', true),
    ],
    ['UNIQUE (namespace, endpoint)'],
  ),
  // doc_ids come from `document_doc_id_seq` (bigserial): insertion-ordered, never reused, not change versions.
  table(DOCUMENT_TABLE, [
    column('doc_id', 'bigint', true, `PRIMARY KEY DEFAULT nextval('${DOCUMENT_TABLE}_doc_id_seq')`),
    column('resource_id', 'integer', true),
    column('uuid', 'key', true, 'UNIQUE'),
  ]),
  table(TRACKED_CHANGE_TABLE, [
    column('change_version', 'bigint', true, 'PRIMARY KEY'),
    column('resource_id', 'integer', true),
    column('kind', 'text', true, "CHECK (kind IN ('D', 'K'))"),
    column('uuid', 'key', true),
    column('old_identity_key', 'key', true),
    column('old_key', 'text', true),
    column('new_key', 'text', false),
    column('old_securables', 'text', true),
    column('changed_at', 'text', true),
  ]),
  table(DOCUMENT_OWNER_TABLE, [
    column('doc_id', 'bigint', true, `PRIMARY KEY ${documentReference}`),
    column('ownership_token', 'bigint', true),
  ]),
  pairTable(EDORG_PARENT_TABLE, 'child_id', 'parent_id'),
  pairTable(EDORG_CLOSURE_TABLE, 'source_id', 'target_id'),
  // Clients, tokens, vendors and applications have their own versioned migrations: admin/admin-schema.ts.
];

/** After the resource tables, because descriptor references point into `descriptor`. */
const edgeTables: readonly Table[] = [
  edgeTable(DOCUMENT_EDGE_TABLE, DOCUMENT_TABLE),
  // No reverse index on descriptor references, as in SQLite: deleting a descriptor (rare) scans instead.
  edgeTable(DESCRIPTOR_EDGE_TABLE, DESCRIPTOR_TABLE),
];

const baseIndexes: readonly Index[] = [
  index(DOCUMENT_EDGE_TABLE, ['to_doc']),
  index(TRACKED_CHANGE_TABLE, ['resource_id', 'kind', 'change_version']),
  index(EDORG_CLOSURE_TABLE, ['target_id', 'source_id']),
];

function resourceTable(layout: TableLayout): Table {
  const { table: name, shared, columns } = layout;
  return table(
    name,
    [
      column('doc_id', 'bigint', true, `PRIMARY KEY ${documentReference}`),
      ...(shared ? [column('resource_id', 'integer', true)] : []),
      column('identity_key', 'key', true, shared ? undefined : 'UNIQUE'),
      ...columns.map((typed) => ({ ...column(typed.name, columnTypes[typed.sqlType], typed.notNull), typed })),
      column('change_version', 'bigint', true),
      column('last_modified', 'text', true),
      column('body', 'text', true),
    ],
    shared ? ['UNIQUE (resource_id, identity_key)'] : [],
  );
}

function resourceIndexes(layout: TableLayout): Index[] {
  const { table: name, shared } = layout;
  return [
    index(name, ['change_version']),
    // A shared table lists one resource's rows in doc_id order from this index.
    ...(shared ? [index(name, ['resource_id', 'doc_id'])] : []),
    ...singleColumnIndexes(layout).map((typed) => index(name, [typed.name])),
    ...securablesIndexes(layout),
    ...queryFieldIndexes(layout),
  ];
}

/**
 * The securables index, and the same with the doc id in each entry for the statements that need it: a page in the scope
 * form (scope-breadth.ts) then sorts the client's doc ids from the index alone, where it fetched each of the client's
 * rows from the table (SQLite's one index serves both, its entries ending in the rowid). Not the doc id in the one
 * index: entries that differ by doc id are not deduplicated, which made attendance's index four times larger and the
 * counts and probes that walk it person by person a third slower (an SEA's Total-Count at 10,000 students 29 → 40 ms);
 * PostgreSQL keeps choosing the smaller index where the doc id is not needed.
 */
function securablesIndexes(layout: TableLayout): Index[] {
  const columns = securablesIndexColumns(layout)
    .map((typed) => typed.name)
    .join(', ');
  if (columns === '') return [];
  const name = `${layout.table}_${SECURABLES_INDEX_SUFFIX}`;
  return [
    { name: pgIdentifier(name), table: layout.table, columns },
    { name: pgIdentifier(`${name}_doc_ids`), table: layout.table, columns, include: 'doc_id' },
  ];
}

/** The expression first and doc_id next, so a filtered page reads its rows in doc_id order from the index. */
function queryFieldIndexes(layout: TableLayout): Index[] {
  return queryFieldIndexesOf(layout, postgresDialect).map(({ suffix, expression, where }) => ({
    name: pgIdentifier(`${layout.table}_${suffix}`),
    table: layout.table,
    columns: `(${expression}), doc_id`,
    ...(where === undefined ? {} : { where }),
  }));
}

function abstractIdentityTable({ table: name }: AbstractIdentityLayout): Table {
  return table(name, [
    column('identity_key', 'key', true, 'PRIMARY KEY'),
    column('doc_id', 'bigint', true, `UNIQUE ${documentReference}`),
    column('resource_id', 'integer', true),
  ]);
}

function columnSql({ name, type, notNull, clause }: Column): string {
  const sqlType = type === 'key' ? 'text COLLATE "C"' : type;
  return `${name} ${sqlType}${notNull ? ' NOT NULL' : ''}${clause === undefined ? '' : ` ${clause}`}`;
}

/** How information_schema.columns reports the type. */
function reportedType(type: ColumnType): string {
  return type === 'key' ? 'text' : type;
}

function tableSql({ name, columns, constraints }: Table): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (${[...columns.map(columnSql), ...constraints].join(', ')})`;
}

function indexSql({ name, table: on, columns, include, where }: Index): string {
  const included = include === undefined ? '' : ` INCLUDE (${include})`;
  const partial = where === undefined ? '' : ` WHERE ${where}`;
  return `CREATE INDEX IF NOT EXISTS ${name} ON ${on} (${columns})${included}${partial}`;
}

export interface PostgresSchemaPlan extends LayoutPlan {
  readonly tables: readonly Table[];
  /** The resource tables' planned indexes, by table (those their constraints make aside). */
  readonly resourceIndexes: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every statement, in order: the sequence, tables, indexes. */
  readonly statements: readonly string[];
  readonly fingerprint: string;
}

function physicalLayout(layout: TableLayout): TableLayout {
  return {
    ...layout,
    table: pgIdentifier(layout.table),
    columns: layout.columns.map((typed) => ({ ...typed, name: pgIdentifier(typed.name) })),
  };
}

function physicalLayouts(plan: LayoutPlan): LayoutPlan {
  return {
    layouts: new Map([...plan.layouts].map(([key, layout]) => [key, physicalLayout(layout)])),
    abstractLayouts: new Map(
      [...plan.abstractLayouts].map(([name, layout]) => [name, { ...layout, table: pgIdentifier(layout.table) }]),
    ),
  };
}

function assertUnique(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`Generated ${what} ${name} is not unique`);
    seen.add(name);
  }
}

/** The full schema for a model; resources without their own table (descriptors) share `descriptor`. */
export function planPostgresSchema(registry: ModelRegistry): PostgresSchemaPlan {
  const { layouts, abstractLayouts } = physicalLayouts(planLayouts(registry, { queryFieldColumns: true }));
  const tables: Table[] = [...baseTables];
  const indexes: Index[] = [...baseIndexes];
  const planned = new Map<string, ReadonlySet<string>>();
  for (const layout of layouts.values()) {
    if (planned.has(layout.table)) continue;
    const own = resourceIndexes(layout);
    planned.set(layout.table, new Set(own.map((each) => each.name)));
    tables.push(resourceTable(layout));
    indexes.push(...own);
  }
  for (const layout of abstractLayouts.values()) tables.push(abstractIdentityTable(layout));
  tables.push(...edgeTables);
  assertUnique([...tables.map((each) => each.name), ...indexes.map((each) => each.name)], 'relation name');
  for (const each of tables)
    assertUnique(
      each.columns.map((typed) => typed.name),
      `column of ${each.name}`,
    );
  const statements = [
    `CREATE SEQUENCE IF NOT EXISTS ${DOCUMENT_TABLE}_doc_id_seq`,
    ...tables.map(tableSql),
    `ALTER SEQUENCE ${DOCUMENT_TABLE}_doc_id_seq OWNED BY ${DOCUMENT_TABLE}.doc_id`,
    ...indexes.map(indexSql),
  ];
  const hash = createHash('sha256').update(String(SCHEMA_VERSION));
  for (const statement of statements) hash.update('\n').update(statement);
  return {
    layouts,
    abstractLayouts,
    tables,
    resourceIndexes: planned,
    statements,
    fingerprint: hash.digest('hex'),
  };
}

interface MetaRow {
  readonly key: string;
  readonly value: number | null;
  readonly text_value: string | null;
}

async function statusOn(client: pg.ClientBase, schema: string, plan: PostgresSchemaPlan): Promise<SchemaStatus> {
  const metaName = `${quoteIdentifier(schema)}.${META_TABLE}`;
  const exists = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [metaName]);
  if (!exists.rows[0]!.found) return 'empty';
  const { rows } = await client.query<MetaRow>(`SELECT key, value, text_value FROM ${metaName} WHERE key = ANY ($1)`, [
    [FINGERPRINT_KEY, ADMIN_SCHEMA_VERSION_KEY],
  ]);
  const meta = new Map(rows.map((row) => [row.key, row]));
  const current =
    meta.get(FINGERPRINT_KEY)?.text_value === plan.fingerprint &&
    meta.get(ADMIN_SCHEMA_VERSION_KEY)?.value === ADMIN_SCHEMA_VERSION;
  return current ? 'current' : 'outdated';
}

type Queryable = pg.Pool | pg.ClientBase;

async function hasTable(connection: Queryable, schema: string, table: string): Promise<boolean> {
  const name = `${quoteIdentifier(schema)}.${table}`;
  const exists = await connection.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
  return exists.rows[0]!.found;
}

/** The optional extensions recorded by the last migration; undefined for a store without a schema. */
export async function servedExtensionsOf(connection: Queryable, schema: string): Promise<string[] | undefined> {
  if (!(await hasTable(connection, schema, META_TABLE))) return undefined;
  const { rows } = await connection.query<MetaRow>(
    `SELECT key, value, text_value FROM ${quoteIdentifier(schema)}.${META_TABLE} WHERE key = $1`,
    [SERVED_EXTENSIONS_KEY],
  );
  return (rows[0]?.text_value ?? '').split(',').filter((name) => name !== '');
}

/** The models of the extensions added to the store, as its migrations recorded them; undefined without a schema. */
export async function addedExtensionsOf(connection: Queryable, schema: string): Promise<ExtensionModel[] | undefined> {
  if (!(await hasTable(connection, schema, META_TABLE))) return undefined;
  if (!(await hasTable(connection, schema, EXTENSION_MODEL_TABLE))) return [];
  const { rows } = await connection.query<{ definition: string }>(
    `SELECT definition FROM ${quoteIdentifier(schema)}.${EXTENSION_MODEL_TABLE} ORDER BY namespace`,
  );
  return rows.map((row) => JSON.parse(row.definition) as ExtensionModel);
}

async function recordsExtensions(client: pg.ClientBase, schema: string, registry: ModelRegistry): Promise<boolean> {
  const served = (await servedExtensionsOf(client, schema)) ?? [];
  return recordsExtensionsOf(served, (await addedExtensionsOf(client, schema)) ?? [], registry);
}

async function recordExtensions(client: pg.ClientBase, registry: ModelRegistry): Promise<void> {
  await writeMeta(client, SERVED_EXTENSIONS_KEY, { text: registry.extensions.join(',') });
  for (const model of registry.addedExtensions) {
    await client.query(
      `INSERT INTO ${EXTENSION_MODEL_TABLE} (namespace, definition) VALUES ($1, $2) ` +
        'ON CONFLICT (namespace) DO UPDATE SET definition = excluded.definition',
      [model.project.namespace, JSON.stringify(model)],
    );
  }
}

/** Whether the store's schema holds exactly this plan, with the administrative tables up to date. */
export async function schemaStatusOf(pool: pg.Pool, schema: string, plan: PostgresSchemaPlan): Promise<SchemaStatus> {
  const client = await pool.connect();
  try {
    return await statusOn(client, schema, plan);
  } finally {
    client.release();
  }
}

/** The advisory lock that serializes migrations of one schema across processes. */
function migrationLockKey(schema: string): number {
  return createHash('sha256').update(schema).digest().readInt32BE(0);
}

/**
 * Creates the schema and everything missing in one transaction, serialized across processes by a transaction-level
 * advisory lock; fails when an existing table has other columns than the model needs (a real migration).
 */
export async function migrateSchema(
  pool: pg.Pool,
  schema: string,
  plan: PostgresSchemaPlan,
  registry: ModelRegistry,
): Promise<MigrationOutcome> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [MIGRATION_LOCK_CLASS, migrationLockKey(schema)]);
    const status = await statusOn(client, schema, plan);
    // An extension adding only `_ext` members changes no table, yet the store must record that it serves it.
    if (status === 'current' && (await recordsExtensions(client, schema, registry))) return 'current';
    await createSchema(client, schema);
    await client.query(tableSql(metaTable));
    const meta = await readMeta(client);
    if (meta.get(FINGERPRINT_KEY)?.text_value !== plan.fingerprint) await createObjects(client, schema, plan);
    await migrateAdminSchema(client, meta.get(ADMIN_SCHEMA_VERSION_KEY)?.value ?? 0);
    await writeMeta(client, ADMIN_SCHEMA_VERSION_KEY, { value: ADMIN_SCHEMA_VERSION });
    await registerResourceTypes(client, registry);
    await recordExtensions(client, registry);
    return status === 'empty' ? 'created' : 'upgraded';
  });
}

async function createSchema(client: pg.ClientBase, schema: string): Promise<void> {
  const found = await client.query<{ found: boolean }>('SELECT to_regnamespace($1) IS NOT NULL AS found', [
    quoteIdentifier(schema),
  ]);
  // Only when missing: CREATE SCHEMA IF NOT EXISTS would still need the CREATE privilege on the database.
  if (!found.rows[0]!.found) await client.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`);
  // The connection's search path named the schema before it existed; make sure this transaction resolves into it.
  await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}`);
}

async function readMeta(client: pg.ClientBase): Promise<Map<string, MetaRow>> {
  const { rows } = await client.query<MetaRow>(`SELECT key, value, text_value FROM ${META_TABLE}`);
  return new Map(rows.map((row) => [row.key, row]));
}

async function writeMeta(
  client: pg.ClientBase,
  key: string,
  { value = null, text = null }: { value?: number | null; text?: string | null },
): Promise<void> {
  await client.query(
    `INSERT INTO ${META_TABLE} (key, value, text_value) VALUES ($1, $2, $3) ` +
      'ON CONFLICT (key) DO UPDATE SET value = excluded.value, text_value = excluded.text_value',
    [key, value, text],
  );
}

interface ColumnRow {
  readonly table_name: string;
  readonly column_name: string;
  readonly data_type: string;
  readonly is_nullable: 'YES' | 'NO';
}

/** How a column compares with information_schema's report of an existing one. */
function comparedDefinition(type: string, notNull: boolean): string {
  return `${type}${notNull ? ' NOT NULL' : ''}`;
}

function plannedTable({ name, columns }: Table): PlannedTable {
  return {
    name,
    columns: columns.map((planned) => ({
      name: planned.name,
      definition: comparedDefinition(reportedType(planned.type), planned.notNull),
      ...(planned.typed === undefined ? {} : { typed: planned.typed }),
    })),
  };
}

/**
 * Adds the missing nullable typed columns of planned tables that exist (refusing any other difference, before changing
 * anything); then runs every statement (each skips what exists, so the new indexes are made).
 */
async function createObjects(client: pg.ClientBase, schema: string, plan: PostgresSchemaPlan): Promise<void> {
  const { rows } = await client.query<ColumnRow>(
    'SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns ' +
      'WHERE table_schema = $1 ORDER BY table_name, ordinal_position',
    [schema],
  );
  const existing = new Map<string, ColumnDefinition[]>();
  for (const row of rows) {
    const columns = existing.get(row.table_name) ?? [];
    columns.push({ name: row.column_name, definition: comparedDefinition(row.data_type, row.is_nullable === 'NO') });
    existing.set(row.table_name, columns);
  }
  const additions = plan.tables.flatMap((planned) => {
    const found = existing.get(planned.name);
    if (found === undefined) return [];
    const added = new Set(columnsToAdd(plannedTable(planned), found).map((column) => column.name));
    return added.size === 0
      ? []
      : [{ table: planned.name, added: planned.columns.filter((column) => added.has(column.name)) }];
  });
  for (const { table: name, added } of additions) await addColumns(client, name, added);
  await dropRetiredIndexes(client, schema, plan);
  // No parameters, so the driver sends the whole DDL as one simple query: one round trip.
  await client.query(plan.statements.map((statement) => `${statement};`).join('\n'));
  await writeMeta(client, FINGERPRINT_KEY, { text: plan.fingerprint });
  await client.query(`INSERT INTO ${META_TABLE} (key, value) VALUES ($1, 0) ON CONFLICT (key) DO NOTHING`, [
    CHANGE_VERSION_KEY,
  ]);
}

/**
 * Drops the indexes of resource tables that this plan does not make, and those that read the body (an earlier
 * version's query-field indexes on values extracted from it, by the names the plan now gives to indexes on query-field
 * columns), leaving those of constraints (keys) alone.
 */
async function dropRetiredIndexes(client: pg.ClientBase, schema: string, plan: PostgresSchemaPlan): Promise<void> {
  const { rows } = await client.query<{ table: string; index: string; reads_body: boolean }>(
    "SELECT t.relname AS table, i.relname AS index, pg_get_indexdef(x.indexrelid) ~ '\\mbody\\M' AS reads_body " +
      'FROM pg_index x ' +
      'JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid ' +
      'JOIN pg_namespace n ON n.oid = t.relnamespace ' +
      'WHERE n.nspname = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)',
    [schema],
  );
  for (const { table: name, index, reads_body: readsBody } of rows) {
    const planned = plan.resourceIndexes.get(name);
    if (planned !== undefined && (readsBody || !planned.has(index)))
      await client.query(`DROP INDEX ${quoteIdentifier(index)}`);
  }
}

/** Adds the columns, then fills them batch by batch from each row's stored body (inside the migration's transaction). */
async function addColumns(client: pg.ClientBase, name: string, added: readonly Column[]): Promise<void> {
  await client.query(`ALTER TABLE ${name} ${added.map((column) => `ADD COLUMN ${columnSql(column)}`).join(', ')}`);
  const typed = added.map((column) => column.typed!);
  const arrays = added.map((column, at) => `$${at + 2}::${reportedType(column.type)}[]`);
  const update =
    `UPDATE ${name} t SET ${added.map((column) => `${column.name} = v.${column.name}`).join(', ')} ` +
    `FROM unnest($1::bigint[], ${arrays.join(', ')}) AS v (doc_id, ${added.map((column) => column.name).join(', ')}) ` +
    'WHERE t.doc_id = v.doc_id';
  const batch = `SELECT doc_id, body FROM ${name} WHERE doc_id > $1 ORDER BY doc_id LIMIT ${BACKFILL_BATCH_ROWS}`;
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const { rows } = await client.query<{ doc_id: number; body: string }>(batch, [after]);
    if (rows.length === 0) return;
    const values = backfillValues(
      typed,
      rows.map((row) => row.body),
    );
    await client.query(update, [rows.map((row) => row.doc_id), ...values]);
    after = rows.at(-1)!.doc_id;
  }
}

/** Stable small ids per resource, kept in `resource_type` so they survive model additions. */
async function registerResourceTypes(client: pg.ClientBase, registry: ModelRegistry): Promise<void> {
  const resources = registry.allResources;
  await client.query(
    `INSERT INTO ${RESOURCE_TYPE_TABLE} (namespace, endpoint, resource_name) ` +
      'SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (namespace, endpoint) DO NOTHING',
    [
      resources.map((resource) => resource.namespace),
      resources.map((resource) => resource.endpoint),
      resources.map((resource) => resource.resourceName),
    ],
  );
}

/** The resource ids `migrateSchema` registered, by relational `resourceKey`. */
export async function readResourceTypes(queryable: pg.Pool | pg.ClientBase): Promise<ReadonlyMap<string, number>> {
  const { rows } = await queryable.query<{ resource_id: number; namespace: string; endpoint: string }>(
    `SELECT resource_id, namespace, endpoint FROM ${RESOURCE_TYPE_TABLE}`,
  );
  return new Map(rows.map((row) => [resourceKey(row), row.resource_id]));
}
