// Snapshot sessions (contract §4.7), whatever the database: per session, one snapshot pinned to the moment the
// session began. A session lasts while it is used; the least recently used goes first when too many are open, and an
// unused one is released after the idle time even when no other snapshot request comes. However much it is used, a
// snapshot is released once older than the maximum age or once the database says it pins too much (SQLite's WAL):
// the session's next read is told so (SnapshotExpiredError) instead of silently getting a newer moment.
import { StoreError } from '../store.js';

export interface SnapshotSessionOptions {
  /** Sessions kept at once; 0 disables snapshots. */
  readonly max: number;
  /** A session unused this long is released. */
  readonly idleMs: number;
  /** A snapshot older than this is released, used or not. */
  readonly maxAgeMs: number;
}

/** How a store opens and releases its snapshots (`T` may be a promise of one, for a driver that connects async). */
export interface SnapshotSource<T> {
  /** A new snapshot for the session (a store may share it with other processes under the session's name). */
  open(session: string): T;
  release(snapshot: T): void;
  /** Whether the open snapshots hold back too much of the database (SQLite: a WAL past its limit). */
  pinsTooMuch?(): boolean;
  /** After snapshots were released for age or pinning: let the database reclaim what they held (checkpoint). */
  reclaim?(): void;
}

interface Session<T> {
  readonly snapshot: T;
  readonly openedAt: number;
  lastUsed: number;
}

/** A snapshot's maximum age unless configured: long enough for a large change-query sync, short enough to bound it. */
export const DEFAULT_SNAPSHOT_MAX_AGE_MS = 60 * 60_000;

/** Sessions whose snapshot was released for age or pinning, remembered so that their next read is told. */
const EXPIRED_REMEMBERED = 1_024;
/** Pinning is checked this often at least while snapshots are open, even without snapshot requests. */
const SWEEP_AT_LEAST_EVERY_MS = 10_000;

export const SNAPSHOT_EXPIRED_MESSAGE =
  'The snapshot was released: it reached its maximum age or held back too much of the database. ' +
  'Call availableChangeVersions with Use-Snapshot: true to start a new one.';

export class SnapshotSessions<T> {
  /** In order of last use, oldest first. */
  readonly #sessions = new Map<string, Session<T>>();
  readonly #expired = new Set<string>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: SnapshotSource<T>,
    private readonly options: SnapshotSessionOptions,
  ) {}

  /**
   * The session's snapshot, opened now when the session has none or a fresh one is asked for; throws a StoreError
   * `snapshot-expired` once for a session whose snapshot was released for age or pinning (unless fresh).
   */
  snapshotOf(session: string, fresh: boolean): T | undefined {
    if (this.options.max <= 0) return undefined;
    const now = Date.now();
    this.#releaseIdle(now);
    this.#releaseExpired(now);
    if (this.#expired.delete(session) && !fresh) throw new StoreError('snapshot-expired', SNAPSHOT_EXPIRED_MESSAGE);
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
      entry = { snapshot: this.source.open(session), openedAt: now, lastUsed: now };
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

  /** Releases the snapshots past their age, and the oldest while the database says they pin too much. */
  #releaseExpired(now: number): void {
    const expired: string[] = [];
    for (const [session, entry] of this.#sessions) {
      if (now - entry.openedAt >= this.options.maxAgeMs) expired.push(session);
    }
    if (expired.length < this.#sessions.size && this.source.pinsTooMuch?.() === true) {
      // The oldest snapshot holds the checkpoint back furthest; releasing it lets the checkpoint reach the next one.
      const [oldest] = [...this.#sessions]
        .filter(([session]) => !expired.includes(session))
        .sort(([, a], [, b]) => a.openedAt - b.openedAt);
      if (oldest !== undefined) expired.push(oldest[0]);
    }
    for (const session of expired) this.#expire(session);
    if (expired.length > 0) this.source.reclaim?.();
  }

  #expire(session: string): void {
    this.#release(session);
    if (this.#expired.size >= EXPIRED_REMEMBERED) this.#expired.delete(this.#expired.values().next().value!);
    this.#expired.add(session);
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
    const every = Math.min(this.options.idleMs, this.options.maxAgeMs, SWEEP_AT_LEAST_EVERY_MS);
    this.#sweeper = setInterval(() => {
      const now = Date.now();
      this.#releaseIdle(now);
      this.#releaseExpired(now);
    }, every);
    this.#sweeper.unref();
  }
}
