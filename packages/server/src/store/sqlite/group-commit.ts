// Group commit: the document writes that arrive in one event-loop turn run in one BEGIN IMMEDIATE transaction, each in
// its own savepoint, and are answered once that transaction has committed. A commit (writing the changed pages to the
// WAL) costs more than a typical write itself, and the writes of one turn share their hottest pages, so under load
// most of that cost is paid once per turn instead of once per write.
//
// What each write promises is unchanged: it is atomic (a failing write rolls back to its savepoint and fails alone),
// nothing of it is visible before the commit (the batch runs synchronously, so no read of this connection can come
// in between, and other connections see only committed data), and it is acknowledged only after the commit.
import type Database from 'better-sqlite3';
import { TurnBatches, type PendingWork } from './turn-batches.js';

/** Writes per transaction at most: bounds how long one batch holds the write lock. */
const DEFAULT_MAX_BATCH = 128;

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export interface GroupCommitOptions {
  readonly maxBatch?: number;
  /** Called when a whole batch failed (its transaction could not begin or commit): drop what was cached from it. */
  readonly onBatchFailure?: () => void;
}

export class GroupCommit {
  readonly #batches: TurnBatches;
  readonly #onBatchFailure: () => void;
  readonly #inSavepoint: Database.Transaction<(work: () => unknown) => unknown>;
  readonly #runBatch: Database.Transaction<(batch: readonly PendingWork[]) => Outcome[]>;

  constructor(
    private readonly db: Database.Database,
    options: GroupCommitOptions = {},
  ) {
    this.#batches = new TurnBatches((batch) => this.#commit(batch), options.maxBatch ?? DEFAULT_MAX_BATCH);
    this.#onBatchFailure = options.onBatchFailure ?? (() => undefined);
    // Inside the batch's transaction better-sqlite3 runs a nested transaction function as a savepoint.
    this.#inSavepoint = db.transaction((work) => work());
    this.#runBatch = db.transaction((batch) => batch.map((write) => this.#runOne(write)));
  }

  /** Runs `work` (synchronous SQLite writes) in the next batch; settles once the batch has committed. */
  run<T>(work: () => T): Promise<T> {
    return this.#batches.run(work);
  }

  /** Runs every pending write now (before the connection closes). */
  drain(): void {
    this.#batches.drain();
  }

  #commit(batch: readonly PendingWork[]): void {
    let outcomes: Outcome[];
    try {
      outcomes = this.#runBatch.immediate(batch);
    } catch (error) {
      this.#onBatchFailure();
      for (const write of batch) write.reject(error);
      return;
    }
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
