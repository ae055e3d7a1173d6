// Statements over the `document` registry and the instance counter: allocating change versions (which also serve as
// doc_ids), registering and deleting documents.
import type Database from 'better-sqlite3';
import type { ChangeStamp } from './resource-table.js';
import { CHANGE_VERSION_KEY, DOCUMENT_OWNER_TABLE } from '../relational/schema-plan.js';
import { utcNow } from '../relational/timestamps.js';

export class DocumentRegistry {
  readonly #nextChangeVersion: Database.Statement<[], number>;
  readonly #insert: Database.Statement<[number, number, string]>;
  readonly #delete: Database.Statement<[number]>;
  readonly #hasAny: Database.Statement<[], number>;
  readonly #insertOwner: Database.Statement<[number, number]>;
  readonly #ownerOf: Database.Statement<[number], number>;

  constructor(db: Database.Database) {
    // Runs inside the write's IMMEDIATE transaction, so versions are strictly commit-ordered across processes.
    this.#nextChangeVersion = db
      .prepare<[], number>(`UPDATE meta SET value = value + 1 WHERE key = '${CHANGE_VERSION_KEY}' RETURNING value`)
      .pluck();
    this.#insert = db.prepare('INSERT INTO document (doc_id, resource_id, uuid) VALUES (?, ?, ?)');
    this.#delete = db.prepare('DELETE FROM document WHERE doc_id = ?');
    this.#insertOwner = db.prepare(`INSERT INTO ${DOCUMENT_OWNER_TABLE} (doc_id, ownership_token) VALUES (?, ?)`);
    this.#ownerOf = db
      .prepare<[number], number>(`SELECT ownership_token FROM ${DOCUMENT_OWNER_TABLE} WHERE doc_id = ?`)
      .pluck();
    this.#hasAny = db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM document)').pluck();
  }

  /**
   * The next change version and the write time. A new document also takes the version as its doc_id: doc_ids then
   * follow insertion order and are never reused, so a cached id (descriptors) can never point at another document.
   */
  nextStamp(): ChangeStamp {
    const changeVersion = this.#nextChangeVersion.get();
    if (changeVersion === undefined) throw new Error('The change-version counter is missing');
    return { changeVersion, lastModified: utcNow() };
  }

  /** The creator's ownership token, when the write carries one, stays with the document for its lifetime. */
  insert(docId: number, resourceId: number, uuid: string, ownershipTokenId: number | undefined): void {
    this.#insert.run(docId, resourceId, uuid);
    if (ownershipTokenId !== undefined) this.#insertOwner.run(docId, ownershipTokenId);
  }

  ownerOf(docId: number): number | undefined {
    return this.#ownerOf.get(docId);
  }

  /** Cascades to the resource row, identity registrations and outgoing edges; RESTRICT on incoming edges throws. */
  delete(docId: number): void {
    this.#delete.run(docId);
  }

  hasDocuments(): boolean {
    return this.#hasAny.get() === 1;
  }
}
