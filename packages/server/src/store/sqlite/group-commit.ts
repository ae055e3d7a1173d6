// Group commit: the document writes that arrive in one event-loop turn run in one BEGIN IMMEDIATE transaction, each in
// its own savepoint, and are answered once that transaction has committed. A commit (writing the changed pages to the
// WAL) costs more than a typical write itself, and the writes of one turn share their hottest pages, so under load
// most of that cost is paid once per turn instead of once per write.
//
// What each write promises is unchanged: it is atomic (a failing write rolls back to its savepoint and fails alone),
// nothing of it is visible before the commit (the batch runs synchronously, so no read of this connection can come
// in between, and other connections see only committed data), and it is acknowledged only after the commit.
import type Database from 'better-sqlite3';
import { TurnBatches, type PendingWork } from '../relational/turn-batches.js';
import { isBusy } from './sql-errors.js';

/** Writes per transaction at most: bounds how long one batch holds the write lock. */
const DEFAULT_MAX_BATCH = 128;
/** How long a batch waits for another process's write lock before its writes fail (SQLite's busy timeout). */
const DEFAULT_LOCK_WAIT_MS = 5_000;
const MAX_RETRY_DELAY_MS = 16;

interface LockWait {
  readonly startedAt: number;
  readonly attempt: number;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export interface GroupCommitOptions {
  readonly maxBatch?: number;
  /**
   * How long a batch waits for the write lock when another process holds it. The wait is a timer, not SQLite's busy
   * handler, which would sleep inside the call and stop this process from serving anything else meanwhile.
   */
  readonly lockWaitMs?: number;
  /** Called when a whole batch failed (its transaction could not begin or commit): drop what was cached from it. */
  readonly onBatchFailure?: () => void;
}

export class GroupCommit {
  readonly #batches: TurnBatches;
  readonly #onBatchFailure: () => void;
  readonly #inSavepoint: Database.Transaction<(work: () => unknown) => unknown>;
  readonly #runBatch: Database.Transaction<(batch: readonly PendingWork[]) => Outcome[]>;
  readonly #lockWaitMs: number;
  /** SQLite applies a busy_timeout pragma when it compiles it, so these are run with exec, not prepared once. */
  readonly #busyTimeout: { readonly off: string; readonly restore: string };
  /** Batches waiting for another process's write lock, with their retry timers. */
  readonly #waiting = new Map<readonly PendingWork[], NodeJS.Timeout>();

  constructor(
    private readonly db: Database.Database,
    options: GroupCommitOptions = {},
  ) {
    this.#batches = new TurnBatches((batch) => this.#commit(batch), options.maxBatch ?? DEFAULT_MAX_BATCH);
    this.#onBatchFailure = options.onBatchFailure ?? (() => undefined);
    this.#lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    const busyTimeoutMs = Number(db.pragma('busy_timeout', { simple: true }));
    this.#busyTimeout = { off: 'PRAGMA busy_timeout = 0', restore: `PRAGMA busy_timeout = ${busyTimeoutMs}` };
    // Inside the batch's transaction better-sqlite3 runs a nested transaction function as a savepoint.
    this.#inSavepoint = db.transaction((work) => work());
    this.#runBatch = db.transaction((batch) => batch.map((write) => this.#runOne(write)));
  }

  /** Runs `work` (synchronous SQLite writes) in the next batch; settles once the batch has committed. */
  run<T>(work: () => T): Promise<T> {
    return this.#batches.run(work);
  }

  /** Runs every pending write now (before the connection closes), waiting for the lock inside SQLite if need be. */
  drain(): void {
    for (const [batch, timer] of this.#waiting) {
      clearTimeout(timer);
      this.#waiting.delete(batch);
      this.#commit(batch, undefined);
    }
    this.#batches.drain();
  }

  /** @param wait how long this batch has waited for the lock; undefined to wait inside SQLite (busy timeout) */
  #commit(batch: readonly PendingWork[], wait: LockWait | undefined = { startedAt: Date.now(), attempt: 0 }): void {
    let outcomes: Outcome[];
    try {
      if (wait) this.db.exec(this.#busyTimeout.off);
      outcomes = this.#runBatch.immediate(batch);
    } catch (error) {
      // Only BEGIN IMMEDIATE meets a lock held elsewhere, before any write of the batch has run.
      if (wait && isBusy(error) && Date.now() - wait.startedAt < this.#lockWaitMs) this.#retryLater(batch, wait);
      else this.#fail(batch, error);
      return;
    } finally {
      if (wait) this.db.exec(this.#busyTimeout.restore);
    }
    this.#settle(batch, outcomes);
  }

  #retryLater(batch: readonly PendingWork[], wait: LockWait): void {
    const timer = setTimeout(
      () => {
        this.#waiting.delete(batch);
        this.#commit(batch, { startedAt: wait.startedAt, attempt: wait.attempt + 1 });
      },
      Math.min(2 ** wait.attempt, MAX_RETRY_DELAY_MS),
    );
    this.#waiting.set(batch, timer);
  }

  #fail(batch: readonly PendingWork[], error: unknown): void {
    this.#onBatchFailure();
    for (const write of batch) write.reject(error);
  }

  #settle(batch: readonly PendingWork[], outcomes: readonly Outcome[]): void {
    outcomes.forEach((outcome, index) => {
      const write = batch[index]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  #runOne(write: PendingWork): Outcome {
    try {
      return { ok: true, value: this.#inSavepoint(write.work) };
    } catch (error) {
      // Some failures (disk full, I/O errors) roll back the whole transaction, and with it the writes before this
      // one: the batch then fails as a whole rather than acknowledging what is gone.
      if (!this.db.inTransaction) throw error;
      return { ok: false, error };
    }
  }
}
