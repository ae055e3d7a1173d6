// Snapshot sessions (contract §4.7), whatever the database: per session, one snapshot pinned to the moment the
// session began. A session lasts while it is used; the least recently used goes first when too many are open, and an
// unused one is released after the idle time even when no other snapshot request comes.

export interface SnapshotSessionOptions {
  /** Sessions kept at once; 0 disables snapshots. */
  readonly max: number;
  /** A session unused this long is released. */
  readonly idleMs: number;
}

/** How a store opens and releases its snapshots (`T` may be a promise of one, for a driver that connects async). */
export interface SnapshotSource<T> {
  /** A new snapshot for the session (a store may share it with other processes under the session's name). */
  open(session: string): T;
  release(snapshot: T): void;
}

interface Session<T> {
  readonly snapshot: T;
  lastUsed: number;
}

export class SnapshotSessions<T> {
  /** In order of last use, oldest first. */
  readonly #sessions = new Map<string, Session<T>>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: SnapshotSource<T>,
    private readonly options: SnapshotSessionOptions,
  ) {}

  /** The session's snapshot, opened now when the session has none or a fresh one is asked for. */
  snapshotOf(session: string, fresh: boolean): T | undefined {
    if (this.options.max <= 0) return undefined;
    const now = Date.now();
    this.#releaseIdle(now);
    let entry = this.#sessions.get(session);
    if (entry) {
      this.#sessions.delete(session);
      if (fresh) {
        this.source.release(entry.snapshot);
        entry = undefined;
      }
    }
    if (!entry) {
      for (const oldest of this.#sessions.keys()) {
        if (this.#sessions.size < this.options.max) break;
        this.#release(oldest);
      }
      entry = { snapshot: this.source.open(session), lastUsed: now };
    }
    entry.lastUsed = now;
    this.#sessions.set(session, entry);
    this.#sweepWhileOpen();
    return entry.snapshot;
  }

  /** Releases the session's snapshot if it is still this one (e.g. one that failed to open). */
  discard(session: string, snapshot: T): void {
    if (this.#sessions.get(session)?.snapshot === snapshot) this.#release(session);
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
    const entry = this.#sessions.get(session);
    if (entry) this.source.release(entry.snapshot);
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
