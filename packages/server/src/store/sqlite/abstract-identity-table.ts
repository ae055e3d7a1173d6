// Statements of an abstract resource's identity table (e.g. `education_organization_identity`): every subclass
// document registers its superclass identity there, so abstract references resolve to any subclass and two
// subclasses cannot share an identity.
import type Database from 'better-sqlite3';
import type { AbstractIdentityLayout } from '../relational/table-layout.js';

export interface ResolvedAbstractTarget {
  readonly doc_id: number;
  readonly uuid: string;
  readonly resource_id: number;
}

export class AbstractIdentityTable {
  readonly #insert: Database.Statement<[string, number, number]>;
  readonly resolve: Database.Statement<[string], ResolvedAbstractTarget>;

  constructor(
    db: Database.Database,
    readonly layout: AbstractIdentityLayout,
  ) {
    const { table } = layout;
    this.#insert = db.prepare(`INSERT INTO ${table} (identity_key, doc_id, resource_id) VALUES (?, ?, ?)`);
    this.resolve = db.prepare(
      `SELECT i.doc_id, d.uuid, i.resource_id FROM ${table} i JOIN document d ON d.doc_id = i.doc_id ` +
        'WHERE i.identity_key = ?',
    );
  }

  /** Throws SQLITE_CONSTRAINT_PRIMARYKEY when another subclass document already has this identity. */
  register(identityKey: string, docId: number, resourceId: number): void {
    this.#insert.run(identityKey, docId, resourceId);
  }
}
