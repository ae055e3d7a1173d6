// The write statements of one resource's table, built once from its layout (physical names from the catalog): row
// locks by natural key, API id or doc_id, and inserts and updates that write the document's registry row, typed
// columns, owner, reference edges and superclass identity in one statement each. The resource row itself is held back
// for the transaction's commit to write with its version (change-stamps.ts), except where the transaction writes its
// rows ahead (with change version 0, stamped by the commit): on a batch's last run, for a key change (its new key is
// taken at once, so a concurrent holder of it is refused as now), and for a subclass of an abstract resource (its
// resource row must meet a concurrent insert of the same key before the superclass identity does, which would refuse
// it as taken by another subclass). Every read of the table first writes the rows held back for it.
import type pg from 'pg';
import { keysOf, probedRow } from '../relational/document-read-sql.js';
import type { ResolvedReferences } from '../relational/resolved-references.js';
import {
  DESCRIPTOR_EDGE_TABLE,
  DOCUMENT_EDGE_TABLE,
  DOCUMENT_OWNER_TABLE,
  DOCUMENT_TABLE,
} from '../relational/schema-plan.js';
import type { StoredRow } from '../relational/stored-documents.js';
import { storedColumnNames, type SqlType, type TableLayout } from '../relational/table-layout.js';
import type { ResourceTable } from './catalog.js';
import type { ChangeStamps } from './change-stamps.js';
import { sqlLiteral, type DeferredWrite } from './deferred-row-writes.js';
import { prepared } from './prepared.js';

/** Where a write runs: its transaction's connection and the versions its commit hands out. */
export interface RowScope {
  readonly client: pg.ClientBase;
  readonly stamps: ChangeStamps;
}

/** A document to insert. */
export interface NewRow {
  readonly uuid: string;
  readonly identityKey: string;
  readonly body: unknown;
  readonly bodyJson: string;
  readonly lastModified: string;
  readonly ownershipTokenId?: number;
  /** The superclass identity key, for a subclass of an abstract resource. */
  readonly superclassKey?: string;
  readonly references?: ResolvedReferences;
}

/** The new state of a stored row. */
export interface RowChange {
  readonly body: unknown;
  readonly bodyJson: string;
  readonly lastModified: string;
  /** A new natural key: every typed column is rewritten too. */
  readonly identityKey?: string;
  /** The document's new edges, written as the difference to the stored ones. */
  readonly references?: ResolvedReferences;
}

/** One document of a `lockOrCreate`: the row already holding its natural key, locked, or its new doc_id. */
export type LockOrCreateOutcome = { readonly stored: StoredRow } | { readonly created: number };

const PG_TYPES: Record<SqlType, string> = { INTEGER: 'bigint', REAL: 'double precision', TEXT: 'text' };

const STORED = 'r.doc_id, d.uuid, r.identity_key, r.change_version, r.last_modified, r.body';

/** The statements that replace the edges of document `$1` in one table by the set of targets in `targets`. */
function edgeReplacement(table: string, targets: string): string[] {
  return [
    `DELETE FROM ${table} WHERE from_doc = $1::bigint AND to_doc <> ALL (${targets}::bigint[])`,
    `INSERT INTO ${table} (from_doc, to_doc) SELECT $1::bigint, unnest(${targets}::bigint[]) ON CONFLICT DO NOTHING`,
  ];
}

/** The statements as the steps of one. */
function withSteps(steps: readonly string[]): string {
  return `WITH ${steps.map((step, index) => `u${index} AS (${step})`).join(', ')} SELECT 1`;
}

export class ResourceWrites {
  readonly #layout: TableLayout;
  readonly #lockByKey: string;
  readonly #lockByUuid: string;
  readonly #lockByDocIds: string;
  readonly #holderOf: string;
  readonly #storedKeys: string;
  /** Each insert with the resource row, then without it (held back until the commit). */
  readonly #create: readonly [string, string];
  readonly #createUnlessStored: readonly [string, string];
  readonly #replaceEdges: string;
  readonly #updates = new Map<string, string>();

  /** @param abstractTable the superclass identity table subclass documents register in */
  constructor(
    readonly table: ResourceTable,
    readonly abstractTable: string | undefined,
  ) {
    const { layout, resourceId } = table;
    this.#layout = layout;
    const scope = layout.shared ? `r.resource_id = ${resourceId} AND ` : '';
    const joined = `${layout.table} r JOIN ${DOCUMENT_TABLE} d ON d.doc_id = r.doc_id`;
    this.#lockByKey = `SELECT ${STORED} FROM ${joined} WHERE ${scope}r.identity_key = $1 FOR UPDATE OF r`;
    this.#lockByUuid = `SELECT ${STORED} FROM ${joined} WHERE ${scope}d.uuid = $1 FOR UPDATE OF r`;
    this.#lockByDocIds = `SELECT ${STORED} FROM ${joined} WHERE r.doc_id = ANY ($1::bigint[]) ORDER BY r.doc_id FOR UPDATE OF r`;
    this.#holderOf = `SELECT r.doc_id FROM ${layout.table} r WHERE ${scope}r.identity_key = $1`;
    this.#storedKeys = `SELECT r.identity_key FROM ${layout.table} r WHERE ${scope}r.identity_key = ANY ($1::text[])`;
    const storedRowLock =
      `SELECT ${STORED} FROM ${keysOf('$1')} ` +
      `${probedRow(layout.table, 'r', `${scope}r.identity_key = k.key`, ' FOR UPDATE')} ` +
      `JOIN ${DOCUMENT_TABLE} d ON d.doc_id = r.doc_id`;
    this.#create = [this.#createSql(true), this.#createSql(false)];
    this.#createUnlessStored = [this.#createSql(true, storedRowLock), this.#createSql(false, storedRowLock)];
    this.#replaceEdges = withSteps([
      ...edgeReplacement(DOCUMENT_EDGE_TABLE, '$2'),
      ...edgeReplacement(DESCRIPTOR_EDGE_TABLE, '$3'),
    ]);
  }

  async lockByKey(scope: RowScope, identityKey: string): Promise<StoredRow | undefined> {
    return (await this.#read<StoredRow>(scope, this.#lockByKey, [identityKey]))[0];
  }

  async lockByUuid(scope: RowScope, uuid: string): Promise<StoredRow | undefined> {
    return (await this.#read<StoredRow>(scope, this.#lockByUuid, [uuid]))[0];
  }

  /** In doc_id order, the order concurrent cascades lock in. */
  async lockByDocIds(scope: RowScope, docIds: readonly number[]): Promise<StoredRow[]> {
    return this.#read<StoredRow>(scope, this.#lockByDocIds, [docIds]);
  }

  /** The document that holds this natural key, if any. */
  async holderOf(scope: RowScope, identityKey: string): Promise<number | undefined> {
    return (await this.#read<{ doc_id: number }>(scope, this.#holderOf, [identityKey]))[0]?.doc_id;
  }

  /** Which of these natural keys are stored. */
  async storedKeys(scope: RowScope, identityKeys: readonly string[]): Promise<Set<string>> {
    const rows = await this.#read<{ identity_key: string }>(scope, this.#storedKeys, [identityKeys]);
    return new Set(rows.map((row) => row.identity_key));
  }

  /** Inserts the documents in one statement; returns their new doc_ids, in order. Version each with `versionCreated`. */
  async create(scope: RowScope, rows: readonly NewRow[]): Promise<number[]> {
    const held = this.#holdsRows(scope);
    const sql = this.#create[held ? 1 : 0];
    return (await this.#read<{ doc_id: number }>(scope, sql, this.#rowValues(rows, !held))).map((row) => row.doc_id);
  }

  /** Reserves the version of a document `create` or `lockOrCreate` inserted, and holds its row back if they did. */
  versionCreated({ stamps }: RowScope, row: NewRow, docId: number): number {
    const { table } = this.#layout;
    if (!this.#holdsRows({ stamps })) return stamps.stampRow(table, docId);
    const { shared, columns } = this.#layout;
    const names = ['doc_id', ...(shared ? ['resource_id'] : []), 'identity_key'];
    const values = [
      sqlLiteral(docId, 'bigint'),
      ...(shared ? [sqlLiteral(this.table.resourceId, 'integer')] : []),
      sqlLiteral(row.identityKey, 'text'),
    ];
    // A column left out is NULL (typed columns have no default): most of a document's optional members are absent,
    // and each literal left out is less text to build, send and parse.
    for (const column of columns) {
      const value = column.read(row.body);
      if (value === null || value === undefined) continue;
      names.push(column.name);
      values.push(sqlLiteral(value, PG_TYPES[column.sqlType]));
    }
    names.push('last_modified', 'body');
    values.push(sqlLiteral(row.lastModified, 'text'), sqlLiteral(row.bodyJson, 'text'));
    return stamps.deferRow(table, docId, { kind: 'insert', columns: names, values: values.join(', ') });
  }

  /**
   * In one round trip, for documents of distinct natural keys: locks the rows holding those keys, and inserts the
   * documents whose key no row holds (the lock probe and the insert see the same snapshot, so a row another transaction
   * inserted meanwhile makes the insert fail on the unique key, as `create` does; or the commit, for rows held back). Answers each document's stored row
   * or new doc_id, in the order given. Rows are inserted in natural key order, the order concurrent statements lock
   * the unique key in, so two of them wait for each other instead of deadlocking.
   */
  async lockOrCreate(scope: RowScope, rows: readonly NewRow[]): Promise<LockOrCreateOutcome[]> {
    const ordered = [...rows].sort((a, b) =>
      a.identityKey < b.identityKey ? -1 : a.identityKey > b.identityKey ? 1 : 0,
    );
    const held = this.#holdsRows(scope);
    const values = [ordered.map((row) => row.identityKey), ...this.#rowValues(ordered, !held)];
    const sql = this.#createUnlessStored[held ? 1 : 0];
    const found = await this.#read<StoredRow & { stored: boolean }>(scope, sql, values);
    const byKey = new Map(found.map((row) => [row.identity_key, row]));
    return rows.map((row) => {
      const found = byKey.get(row.identityKey);
      if (found === undefined) throw new Error('The insert returned no row');
      return found.stored ? { stored: found } : { created: found.doc_id };
    });
  }

  /** The parameters of `#createSql(withRow)`. */
  #rowValues(rows: readonly NewRow[], withRow: boolean): unknown[][] {
    const { columns } = this.#layout;
    const values: unknown[][] = [rows.map((row) => row.uuid), rows.map((row) => row.identityKey)];
    if (withRow) {
      values.push(
        ...columns.map((column) => rows.map((row) => column.read(row.body))),
        rows.map((row) => row.lastModified),
        rows.map((row) => row.bodyJson),
      );
    }
    values.push(rows.map((row) => row.ownershipTokenId ?? null));
    if (this.abstractTable !== undefined) values.push(rows.map((row) => row.superclassKey ?? null));
    for (const kind of ['documents', 'descriptors'] as const) {
      const ordinals: number[] = [];
      const targets: number[] = [];
      rows.forEach((row, index) => {
        for (const target of row.references?.[kind] ?? []) {
          ordinals.push(index + 1);
          targets.push(target);
        }
      });
      values.push(ordinals, targets);
    }
    return values;
  }

  /**
   * Rewrites the row (typed columns, body) and, when given, its edges; returns the slot of its new version. The row
   * must be locked (and so read) first. A row keeping its key is held back until the commit where the transaction
   * allows; the edges are written at once.
   */
  async update(scope: RowScope, docId: number, change: RowChange): Promise<number> {
    const { client, stamps } = scope;
    const { table } = this.#layout;
    const withKey = change.identityKey !== undefined;
    const edges = change.references && [[...change.references.documents], [...change.references.descriptors]];
    if (!withKey && this.#holdsRows(scope)) {
      if (edges) await client.query(prepared(this.#replaceEdges, [docId, ...edges]));
      return stamps.deferRow(table, docId, this.#heldUpdate(change));
    }
    const columns = withKey ? this.#layout.columns : this.#layout.columns.filter((column) => !column.fixedByKey);
    const values: unknown[] = [docId, change.lastModified, change.bodyJson];
    if (change.identityKey !== undefined) values.push(change.identityKey);
    for (const column of columns) values.push(column.read(change.body));
    if (edges) values.push(...edges);
    await client.query(prepared(this.#updateSql(withKey, edges !== undefined), values));
    return stamps.stampRow(table, docId);
  }

  /** The update of a row keeping its key, as the commit writes it. */
  #heldUpdate(change: RowChange): DeferredWrite {
    const typed = this.#layout.columns.filter((column) => !column.fixedByKey);
    const values = [
      ...typed.map((column) => sqlLiteral(column.read(change.body), PG_TYPES[column.sqlType])),
      sqlLiteral(change.lastModified, 'text'),
      sqlLiteral(change.bodyJson, 'text'),
    ];
    const columns = [...typed.map((column) => column.name), 'last_modified', 'body'];
    return { kind: 'update', columns, values: values.join(', ') };
  }

  /** Whether the transaction holds this table's new and rewritten rows back until its commit. */
  #holdsRows({ stamps }: Pick<RowScope, 'stamps'>): boolean {
    return stamps.defersRows && this.abstractTable === undefined;
  }

  /** A statement that reads the table, once the rows held back for it are written. */
  async #read<R extends pg.QueryResultRow>(scope: RowScope, sql: string, values: readonly unknown[]): Promise<R[]> {
    await scope.stamps.reveal(scope.client, [this.#layout.table]);
    return (await scope.client.query<R>(prepared(sql, values))).rows;
  }

  /**
   * The insert of documents given as parallel arrays, with their resource rows or without (`withRow`). With
   * `storedRowLock`, a statement selecting (and locking) the stored row of the natural key `$1`, it inserts only when
   * that selects nothing and answers the stored row or the new doc_id, each with `stored` saying which.
   */
  #createSql(withRow: boolean, storedRowLock?: string): string {
    const { table, columns } = this.#layout;
    const { resourceId } = this.table;
    const typed = columns.map((column, index) => ({ alias: `c${index}`, column }));
    let next = storedRowLock === undefined ? 1 : 2;
    const arrays = [`$${next++}::text[]`, `$${next++}::text[]`];
    const aliases = ['uuid', 'identity_key'];
    if (withRow) {
      arrays.push(...typed.map(({ column }) => `$${next++}::${PG_TYPES[column.sqlType]}[]`));
      arrays.push(`$${next++}::text[]`, `$${next++}::text[]`);
      aliases.push(...typed.map(({ alias }) => alias), 'last_modified', 'body');
    }
    arrays.push(`$${next++}::bigint[]`);
    aliases.push('owner');
    if (this.abstractTable !== undefined) {
      arrays.push(`$${next++}::text[]`);
      aliases.push('superclass_key');
    }
    const edgeParameters = (): string => `unnest($${next++}::bigint[], $${next++}::bigint[]) AS x (n, to_doc)`;
    const edges = [DOCUMENT_EDGE_TABLE, DESCRIPTOR_EDGE_TABLE].map(
      (edgeTable, index) =>
        `e${index} AS (INSERT INTO ${edgeTable} (from_doc, to_doc) ` +
        `SELECT j.doc_id, x.to_doc FROM ${edgeParameters()} JOIN j ON j.n = x.n)`,
    );
    const rowColumns = storedColumnNames(this.#layout);
    const aliasOf = new Map<string, string>([
      ['resource_id', String(resourceId)],
      ['change_version', '0'],
      ...typed.map(({ alias, column }): [string, string] => [column.name, alias]),
    ]);
    const rowValues = rowColumns.map((name) => aliasOf.get(name) ?? name);
    const unlessStored =
      storedRowLock === undefined ? '' : ' WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.identity_key = w.identity_key)';
    const steps = [
      ...(storedRowLock === undefined ? [] : [`s AS (${storedRowLock})`]),
      `w AS (SELECT * FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS w (${aliases.join(', ')}, n)${unlessStored})`,
      `d AS (INSERT INTO ${DOCUMENT_TABLE} (resource_id, uuid) SELECT ${resourceId}, uuid FROM w ORDER BY n ` +
        'RETURNING doc_id, uuid)',
      'j AS (SELECT d.doc_id, w.* FROM d JOIN w ON w.uuid = d.uuid)',
      ...(withRow
        ? [`r AS (INSERT INTO ${table} (${rowColumns.join(', ')}) SELECT ${rowValues.join(', ')} FROM j)`]
        : []),
      `o AS (INSERT INTO ${DOCUMENT_OWNER_TABLE} (doc_id, ownership_token) SELECT doc_id, owner FROM j ` +
        'WHERE owner IS NOT NULL)',
      ...edges,
      ...(this.abstractTable === undefined
        ? []
        : [
            `a AS (INSERT INTO ${this.abstractTable} (identity_key, doc_id, resource_id) ` +
              `SELECT superclass_key, doc_id, ${resourceId} FROM j)`,
          ]),
    ];
    if (storedRowLock === undefined) return `WITH ${steps.join(', ')} SELECT doc_id FROM j ORDER BY n`;
    return (
      `WITH ${steps.join(', ')} SELECT true AS stored, s.* FROM s ` +
      'UNION ALL SELECT false, doc_id, NULL, identity_key, NULL, NULL, NULL FROM j'
    );
  }

  #updateSql(withKey: boolean, withEdges: boolean): string {
    const variant = `${withKey} ${withEdges}`;
    const known = this.#updates.get(variant);
    if (known !== undefined) return known;
    const columns = withKey ? this.#layout.columns : this.#layout.columns.filter((column) => !column.fixedByKey);
    let next = 4;
    const assignments = [
      ...(withKey ? [`identity_key = $${next++}`] : []),
      ...columns.map((column) => `${column.name} = $${next++}::${PG_TYPES[column.sqlType]}`),
      'change_version = 0',
      'last_modified = $2',
      'body = $3',
    ];
    const update = `UPDATE ${this.#layout.table} SET ${assignments.join(', ')} WHERE doc_id = $1::bigint`;
    const edges = withEdges
      ? [...edgeReplacement(DOCUMENT_EDGE_TABLE, `$${next++}`), ...edgeReplacement(DESCRIPTOR_EDGE_TABLE, `$${next++}`)]
      : [];
    const sql = edges.length === 0 ? update : withSteps([update, ...edges]);
    this.#updates.set(variant, sql);
    return sql;
  }
}
