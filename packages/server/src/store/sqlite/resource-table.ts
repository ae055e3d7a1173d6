// The prepared statements of one resource's table, built once from its layout: natural-key and id look-ups, reference
// resolution, and row inserts and updates (with or without a new natural key).
import type Database from 'better-sqlite3';
import { documentReadSql } from '../relational/document-read-sql.js';
import type { ReadRow, StoredRow } from '../relational/stored-documents.js';
import { storedColumnNames, type TableLayout } from '../relational/table-layout.js';

export interface ResolvedTarget {
  readonly doc_id: number;
  readonly uuid: string;
}

export interface ChangeStamp {
  readonly changeVersion: number;
  readonly lastModified: string;
}

export class ResourceTable {
  readonly #insert: Database.Statement<unknown[]>;
  readonly #update: Database.Statement<unknown[]>;
  readonly #updateWithKey: Database.Statement<unknown[]>;
  readonly #mutableColumns: TableLayout['columns'];
  readonly findByKey: Database.Statement<[string], StoredRow>;
  readonly findByUuid: Database.Statement<[string], StoredRow>;
  readonly findByDocId: Database.Statement<[number], StoredRow>;
  readonly read: Database.Statement<[string], ReadRow>;
  /** The target of a reference: its doc_id and API id, by natural key. */
  readonly resolve: Database.Statement<[string], ResolvedTarget>;

  constructor(
    db: Database.Database,
    readonly layout: TableLayout,
    readonly resourceId: number,
  ) {
    const { table, shared, columns } = layout;
    /** Shared tables hold several resources; the id is a literal because each statement serves one resource. */
    const scope = shared ? `r.resource_id = ${resourceId} AND ` : '';
    const stored = 'r.doc_id, d.uuid, r.identity_key, r.change_version, r.last_modified, r.body';
    const joined = `${table} r JOIN document d ON d.doc_id = r.doc_id`;
    this.findByKey = db.prepare(`SELECT ${stored} FROM ${joined} WHERE ${scope}r.identity_key = ?`);
    this.findByUuid = db.prepare(`SELECT ${stored} FROM ${joined} WHERE ${scope}d.uuid = ?`);
    this.findByDocId = db.prepare(`SELECT ${stored} FROM ${joined} WHERE r.doc_id = ?`);
    this.read = db.prepare(documentReadSql(this, 'd.uuid'));
    this.resolve = db.prepare(`SELECT r.doc_id, d.uuid FROM ${joined} WHERE ${scope}r.identity_key = ?`);

    const insertColumns = storedColumnNames(layout);
    const values = insertColumns.map((name) => (name === 'resource_id' ? String(resourceId) : '?'));
    this.#insert = db.prepare(`INSERT INTO ${table} (${insertColumns.join(', ')}) VALUES (${values.join(', ')})`);

    // Identity columns cannot change without a key change, so updates leave them (and their indexes) alone.
    this.#mutableColumns = columns.filter((column) => !column.fixedByKey);
    const assignments = [
      ...this.#mutableColumns.map((column) => column.name),
      'change_version',
      'last_modified',
      'body',
    ];
    const update = (names: readonly string[]) =>
      db.prepare(`UPDATE ${table} SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE doc_id = ?`);
    this.#update = update(assignments);
    this.#updateWithKey = update(insertColumns.filter((name) => name !== 'doc_id' && name !== 'resource_id'));
  }

  insertRow(docId: number, identityKey: string, body: unknown, bodyJson: string, stamp: ChangeStamp): void {
    const params: unknown[] = [docId, identityKey];
    for (const column of this.layout.columns) params.push(column.read(body));
    params.push(stamp.changeVersion, stamp.lastModified, bodyJson);
    this.#insert.run(params);
  }

  updateRow(docId: number, body: unknown, bodyJson: string, stamp: ChangeStamp): void {
    const params: unknown[] = [];
    for (const column of this.#mutableColumns) params.push(column.read(body));
    params.push(stamp.changeVersion, stamp.lastModified, bodyJson, docId);
    this.#update.run(params);
  }

  /** An identity update: the natural key and every typed column are rewritten too. */
  updateRowWithKey(docId: number, identityKey: string, body: unknown, bodyJson: string, stamp: ChangeStamp): void {
    const params: unknown[] = [identityKey];
    for (const column of this.layout.columns) params.push(column.read(body));
    params.push(stamp.changeVersion, stamp.lastModified, bodyJson, docId);
    this.#updateWithKey.run(params);
  }
}
