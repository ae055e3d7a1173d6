// SQLite's snapshot sessions: the relational session policy over connections pinned to a moment, each with a reader.
// A snapshot's read transaction stops checkpoints at its moment, so the WAL grows with every write meanwhile: the
// store caps the WAL they may pin, and checkpoints once they are released.
import type Database from 'better-sqlite3';
import {
  SnapshotSessions as Sessions,
  type SnapshotSessionOptions,
  type SnapshotSource,
} from '../relational/snapshot-sessions.js';
import type { DocumentReader } from './document-reader.js';

export interface Snapshot {
  readonly db: Database.Database;
  readonly reader: DocumentReader;
}

export class SnapshotSessions {
  readonly #sessions: Sessions<Snapshot>;

  /** @param database how the live database is told to reclaim the WAL, and whether the WAL pins too much */
  constructor(
    openSnapshot: () => Snapshot,
    options: SnapshotSessionOptions,
    database: Pick<SnapshotSource<Snapshot>, 'pinsTooMuch' | 'reclaim'>,
  ) {
    this.#sessions = new Sessions(
      { open: openSnapshot, release: (snapshot) => snapshot.db.close(), ...database },
      options,
    );
  }

  /** The session's reader, opened now when the session has none or a fresh one is asked for. */
  readerOf(session: string, fresh: boolean): DocumentReader | undefined {
    return this.#sessions.snapshotOf(session, fresh)?.reader;
  }

  closeAll(): void {
    this.#sessions.closeAll();
  }
}
