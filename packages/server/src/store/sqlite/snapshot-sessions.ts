// SQLite's snapshot sessions: the relational session policy over connections pinned to a moment, each with a reader.
import type Database from 'better-sqlite3';
import { SnapshotSessions as Sessions, type SnapshotSessionOptions } from '../relational/snapshot-sessions.js';
import type { DocumentReader } from './document-reader.js';

export interface Snapshot {
  readonly db: Database.Database;
  readonly reader: DocumentReader;
}

export class SnapshotSessions {
  readonly #sessions: Sessions<Snapshot>;

  constructor(openSnapshot: () => Snapshot, options: SnapshotSessionOptions) {
    this.#sessions = new Sessions({ open: openSnapshot, release: (snapshot) => snapshot.db.close() }, options);
  }

  /** The session's reader, opened now when the session has none or a fresh one is asked for. */
  readerOf(session: string, fresh: boolean): DocumentReader | undefined {
    return this.#sessions.snapshotOf(session, fresh)?.reader;
  }

  closeAll(): void {
    this.#sessions.closeAll();
  }
}
