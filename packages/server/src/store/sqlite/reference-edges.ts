// Statements over one edge table: a row per (referencing document, referenced item), whose RESTRICT foreign key on
// `to_doc` is what makes deleting a referenced item fail. Document references live in `ref_edge` (with a reverse
// index); descriptor references in `descriptor_edge` (without one, see schema.ts).
import type Database from 'better-sqlite3';

/** A document that references another. */
export interface Referrer {
  readonly doc_id: number;
  readonly resource_id: number;
}

export class EdgeTable {
  readonly #targetsOf: Database.Statement<[number], number>;
  readonly #insert: Database.Statement<[number, number]>;
  readonly #insertMany: Database.Statement<[number, string]>;
  readonly #delete: Database.Statement<[number, number]>;
  readonly #referrerResourceIds: Database.Statement<[number], number>;
  readonly #referrers: Database.Statement<[number], Referrer>;

  constructor(db: Database.Database, table: string) {
    this.#targetsOf = db.prepare<[number], number>(`SELECT to_doc FROM ${table} WHERE from_doc = ?`).pluck();
    this.#insert = db.prepare(`INSERT INTO ${table} (from_doc, to_doc) VALUES (?, ?)`);
    this.#insertMany = db.prepare(`INSERT INTO ${table} (from_doc, to_doc) SELECT ?, value FROM json_each(?)`);
    this.#delete = db.prepare(`DELETE FROM ${table} WHERE from_doc = ? AND to_doc = ?`);
    this.#referrerResourceIds = db
      .prepare<[number], number>(
        `SELECT DISTINCT d.resource_id FROM ${table} e JOIN document d ON d.doc_id = e.from_doc WHERE e.to_doc = ?`,
      )
      .pluck();
    this.#referrers = db.prepare(
      `SELECT e.from_doc AS doc_id, d.resource_id FROM ${table} e JOIN document d ON d.doc_id = e.from_doc ` +
        'WHERE e.to_doc = ? ORDER BY e.from_doc',
    );
  }

  /** One statement for all of a new document's edges (a statement per edge cost more than the row it inserts). */
  insertAll(fromDoc: number, targets: ReadonlySet<number>): void {
    if (targets.size === 0) return;
    if (targets.size === 1) this.#insert.run(fromDoc, targets.values().next().value as number);
    else this.#insertMany.run(fromDoc, JSON.stringify([...targets]));
  }

  /** Writes only the difference, since an update usually keeps most references. */
  replace(fromDoc: number, targets: ReadonlySet<number>): void {
    const current = new Set(this.#targetsOf.all(fromDoc));
    for (const target of current) if (!targets.has(target)) this.#delete.run(fromDoc, target);
    for (const target of targets) if (!current.has(target)) this.#insert.run(fromDoc, target);
  }

  referrerResourceIds(toDoc: number): number[] {
    return this.#referrerResourceIds.all(toDoc);
  }

  /** In doc_id order, the order cascades lock and rewrite them in. */
  referrers(toDoc: number): Referrer[] {
    return this.#referrers.all(toDoc);
  }
}
