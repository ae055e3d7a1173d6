// Snapshot sessions (contract §4.7): per session, a reader over a connection pinned to the moment the session began.
// A session lasts while it is used; the least recently used goes first when too many are open.
import type Database from 'better-sqlite3';
import type { DocumentReader } from './document-reader.js';

export interface Snapshot {
  readonly db: Database.Database;
  readonly reader: DocumentReader;
}

export interface SnapshotSessionOptions {
  /** Sessions kept at once; 0 disables snapshots. */
  readonly max: number;
  /** A session unused this long is released. */
  readonly idleMs: number;
}

interface Session extends Snapshot {
  lastUsed: number;
}

export class SnapshotSessions {
  /** In order of last use, oldest first. */
  readonly #sessions = new Map<string, Session>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly openSnapshot: () => Snapshot,
    private readonly options: SnapshotSessionOptions,
  ) {}

  /** The session's reader, opened now when the session has none or a fresh one is asked for. */
  readerOf(session: string, fresh: boolean): DocumentReader | undefined {
    if (this.options.max <= 0) return undefined;
    const now = Date.now();
    this.#releaseIdle(now);
    let entry = this.#sessions.get(session);
    if (entry) {
      this.#sessions.delete(session);
      if (fresh) {
        entry.db.close();
        entry = undefined;
      }
    }
    if (!entry) {
      for (const oldest of this.#sessions.keys()) {
        if (this.#sessions.size < this.options.max) break;
        this.#release(oldest);
      }
      entry = { ...this.openSnapshot(), lastUsed: now };
    }
    entry.lastUsed = now;
    this.#sessions.set(session, entry);
    this.#sweepWhileOpen();
    return entry.reader;
  }

  closeAll(): void {
    for (const session of [...this.#sessions.keys()]) this.#release(session);
  }

  #releaseIdle(now: number): void {
    for (const [session, entry] of this.#sessions) {
      if (now - entry.lastUsed < this.options.idleMs) break;
      this.#release(session);
    }
  }

  #release(session: string): void {
    this.#sessions.get(session)?.db.close();
    this.#sessions.delete(session);
    if (this.#sessions.size === 0 && this.#sweeper) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }

  /** Abandoned sessions must not pin the database forever, even when no other snapshot request comes. */
  #sweepWhileOpen(): void {
    if (this.#sweeper) return;
    this.#sweeper = setInterval(() => this.#releaseIdle(Date.now()), this.options.idleMs);
    this.#sweeper.unref();
  }
}
