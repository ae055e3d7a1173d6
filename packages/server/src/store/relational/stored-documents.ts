// How stored rows are presented: the etag derived from the change version, and rows as StoredDocuments.
import type { StoredDocument } from '../store.js';

/** The columns every read of a stored document selects. */
export interface ReadRow {
  readonly doc_id: number;
  readonly uuid: string;
  readonly body: string;
  readonly change_version: number;
  readonly last_modified: string;
}

/** A document row as the write paths read it (under their lock): the read columns and the stored natural key. */
export interface StoredRow extends ReadRow {
  readonly identity_key: string;
}

/**
 * The etag is the change version in decimal: opaque digits like the ODS's int64, unique per write, and unchanged when
 * a write changes nothing. (The ODS derives it from the last-modified time; clients must treat it as opaque.)
 */
export function etagOf(changeVersion: number): string {
  return String(changeVersion);
}

export function toStoredDocument(row: ReadRow): StoredDocument {
  return {
    id: row.uuid,
    bodyJson: row.body,
    etag: etagOf(row.change_version),
    lastModifiedDate: row.last_modified,
    changeVersion: row.change_version,
    docId: row.doc_id,
  };
}
