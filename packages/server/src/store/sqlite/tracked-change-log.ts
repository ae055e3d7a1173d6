// Writes `tracked_change` rows: one per deletion (D) and per identity change (K), inside the write's transaction and
// stamped with a change version of their own.
import type Database from 'better-sqlite3';
import type { KeyValues } from '../store.js';
import type { ChangeStamp } from './resource-table.js';
import { TRACKED_CHANGE_TABLE } from '../relational/schema-plan.js';
import { trackedChangeValues, type TrackedChangeValues, type TrackedDocument } from '../relational/tracked-values.js';

type InsertParameters = [number, ...TrackedChangeValues, string];

export class TrackedChangeLog {
  readonly #insert: Database.Statement<InsertParameters>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO ${TRACKED_CHANGE_TABLE} (change_version, resource_id, kind, uuid, old_identity_key, old_key, ` +
        'new_key, old_securables, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  recordDeletion(stamp: ChangeStamp, document: TrackedDocument): void {
    this.#insert.run(stamp.changeVersion, ...trackedChangeValues(document), stamp.lastModified);
  }

  recordKeyChange(stamp: ChangeStamp, document: TrackedDocument, newKeyValues: KeyValues): void {
    this.#insert.run(stamp.changeVersion, ...trackedChangeValues(document, newKeyValues), stamp.lastModified);
  }
}
