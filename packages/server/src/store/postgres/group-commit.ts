// Group commit for PostgreSQL, as the SQLite store does it: the document writes that arrive in one event-loop turn
// run in one transaction on one pooled connection (write-batch.ts: each in its own savepoint, or none where the
// write's mode allows), and are answered once that transaction has committed. One WAL flush and one hold of the
// change-version counter's row lock (the commit-ordering point of change-stamps.ts) then serve the whole batch instead
// of each write. Batches of later turns run meanwhile on other connections; their commits still queue on the counter
// row, one batch at a time.
//
// A batch runs its writes one after another, a few round trips each, so a turn that brings many writes at once (many
// clients waiting on the previous commit) is split into a few batches that run side by side: while one commits,
// the others execute. Writes of one batch apply in the order they were issued; a turn of fewer than
// 2 × MIN_SPLIT_BATCH writes is never split.
//
// What each write promises is unchanged: it is atomic and fails alone, nothing of it is visible before the commit
// (other connections see only committed data), and it is acknowledged only after the commit. A batch whose
// transaction is lost to a deadlock, a serialization failure or a dropped connection is run again whole, on a fresh
// connection after a short random pause; a connection lost during the commit itself leaves the outcome unknown and
// fails the batch's writes with that error.
import type pg from 'pg';
import { TurnBatches, type PendingWork } from '../relational/turn-batches.js';
import { BatchLost, runBatchOnce, SavepointsNeeded, type BatchRun, type BatchWrites } from './write-batch.js';
import { MAX_ATTEMPTS, WITH_SAVEPOINT, type Committed, type WriteMode, type WriteWork } from './write-transaction.js';

/**
 * Writes per transaction at most. Each write's savepoint is a subtransaction; a backend lists 64 of them in shared
 * memory, beyond which every other session's visibility checks must look them up in pg_subtrans.
 */
const DEFAULT_MAX_BATCH = 64;
/** Batches one turn is split into at most, and the fewest writes each of them gets. */
const MAX_SPLIT = 4;
const MIN_SPLIT_BATCH = 8;
const MAX_PAUSE_MS = 8;

export interface PostgresGroupCommitOptions {
  /** Writes per transaction at most; 64 by default. */
  readonly maxBatch?: number;
}

/** The batches one turn's writes run in, in order: few, for few commits, and none above `maxBatch`. */
function batchesOf<T>(turn: readonly T[], maxBatch: number): T[][] {
  const count = Math.max(
    Math.ceil(turn.length / maxBatch),
    Math.min(MAX_SPLIT, Math.floor(turn.length / MIN_SPLIT_BATCH)),
  );
  const size = Math.ceil(turn.length / Math.max(count, 1));
  const batches: T[][] = [];
  for (let start = 0; start < turn.length; start += size) batches.push(turn.slice(start, start + size));
  return batches;
}

interface BatchedWrite {
  readonly work: WriteWork<unknown>;
  readonly mode: WriteMode;
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * MAX_PAUSE_MS));
}

export class PostgresGroupCommit {
  readonly #batches: TurnBatches<BatchedWrite>;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresGroupCommitOptions = {},
  ) {
    const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    this.#batches = new TurnBatches((turn) => {
      for (const batch of batchesOf(turn, maxBatch)) void this.#commit(batch);
    });
  }

  /** Runs `work` in the next batch; settles once the batch has committed. */
  run<T>(work: WriteWork<T>, mode: WriteMode = WITH_SAVEPOINT): Promise<Committed<T>> {
    return this.#batches.run<Committed<T>>({ work, mode });
  }

  async #commit(batch: readonly PendingWork<BatchedWrite>[]): Promise<void> {
    const writes: BatchWrites = {
      works: batch.map((write) => write.work.work),
      runs: batch.map(() => 0),
      savepoints: batch.some((write) => write.work.mode.savepoint),
    };
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= MAX_ATTEMPTS;
      try {
        const { outcomes, stamps } = await this.#runOnce(writes, last);
        outcomes.forEach((outcome, index) => {
          const write = batch[index]!;
          if (outcome.ok) write.resolve({ value: outcome.value, stamps });
          else write.reject(outcome.error);
        });
        return;
      } catch (error) {
        if (error instanceof SavepointsNeeded && !writes.savepoints) {
          writes.savepoints = true;
          attempt--;
          continue;
        }
        if (error instanceof BatchLost && !last) {
          await pause();
          continue;
        }
        for (const write of batch) write.reject(error instanceof BatchLost ? error.cause : error);
        return;
      }
    }
  }

  async #runOnce(writes: BatchWrites, last: boolean): Promise<BatchRun> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw new BatchLost(error);
    }
    // A connection that breaks while checked out is reported here as well as to its query; unheard, the event would
    // end the process.
    let broken: Error | undefined;
    const onError = (error: Error): void => void (broken = error);
    client.on('error', onError);
    try {
      return await runBatchOnce(client, writes, last);
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken ??= rollbackError));
      throw error;
    } finally {
      client.removeListener('error', onError);
      // A connection that broke or cannot even roll back is discarded, not handed to the next batch.
      client.release(broken);
    }
  }
}
