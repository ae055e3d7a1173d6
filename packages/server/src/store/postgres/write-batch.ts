// One run of a group-commit batch on one connection: one READ COMMITTED transaction, its writes one after another,
// then the change stamps and COMMIT in one round trip.
//
// With savepoints, each write runs in the savepoint `w`, and the savepoint statements travel in the simple queries
// that are sent anyway: `BEGIN` opens the first write's savepoint, the step between two writes releases the one (or
// rolls it back) and opens the next, and the commit's query rolls back a failed last write first. A write that fails
// rolls back to its savepoint and fails alone; one that lost a race (`RetryWrite`) is rolled back and run again at
// once, inside the batch.
//
// Without savepoints (every write's mode allows it: see `WriteMode`), a write costs no step: one that fails in its
// own code before changing anything fails alone; one whose statement failed has aborted the transaction, and the run
// ends with `SavepointsNeeded`, so the caller runs the batch again with savepoints.
//
// A deadlock, a serialization failure or a lost connection takes the whole transaction: the run ends with
// `BatchLost`, and the caller runs the batch again; on its last run such a conflict fails only the write that met it,
// so no write fails for another's conflict. So does a natural key that another transaction took while this one held
// back its row (change-stamps.ts): the commit's statement, or the statement that writes the row ahead, fails on the
// unique key. The last run holds no row back: each write meets such a conflict itself, as a unique violation.
import type pg from 'pg';
import { ChangeStamps, DeferredRowsLost } from './change-stamps.js';
import { isConnectionLoss, isTransientConflict, isUniqueViolation } from './pg-errors.js';
import { MAX_ATTEMPTS, RetryWrite, type WriteWork } from './write-transaction.js';

const BEGIN = 'BEGIN ISOLATION LEVEL READ COMMITTED';
const BEGIN_WITH_SAVEPOINT = `${BEGIN}; SAVEPOINT w`;
const NEXT_AFTER_SUCCESS = 'RELEASE SAVEPOINT w; SAVEPOINT w';
/** The savepoint stays after a rollback to it, so the next write runs in it as it is. */
const ROLL_BACK_WRITE = 'ROLLBACK TO SAVEPOINT w';

export type WriteOutcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** The batch's transaction was lost before its commit was sent; nothing of it was committed. */
export class BatchLost extends Error {
  constructor(override readonly cause: unknown) {
    super('The batch transaction was lost');
    this.name = 'BatchLost';
  }
}

/** A run without savepoints met a failed statement; nothing of it was committed. */
export class SavepointsNeeded extends Error {
  constructor(override readonly cause: unknown) {
    super('A statement failed in a batch run without savepoints');
    this.name = 'SavepointsNeeded';
  }
}

/** A batch's writes, how many times each one's work has started across runs of the batch, and how they run. */
export interface BatchWrites {
  readonly works: readonly WriteWork<unknown>[];
  readonly runs: number[];
  savepoints: boolean;
}

/** What one run of a batch settled: each write's outcome, in order, and the stamps its commit numbered. */
export interface BatchRun {
  readonly outcomes: readonly WriteOutcome[];
  readonly stamps: ChangeStamps;
}

interface WriteResult {
  readonly outcome: WriteOutcome;
  /** Made no change: a successful write marked unchanged, or a failed one. */
  readonly unchanged: boolean;
}

/**
 * Runs every write and commits (or, when nothing changed, rolls back); settles no promise.
 * @param last this is the batch's last run: a conflict fails the write that met it instead of the run
 */
export async function runBatchOnce(client: pg.PoolClient, writes: BatchWrites, last: boolean): Promise<BatchRun> {
  const stamps = new ChangeStamps(!last);
  const outcomes: WriteOutcome[] = [];
  let changed = false;
  const { savepoints } = writes;
  await batchStatement(client, savepoints ? BEGIN_WITH_SAVEPOINT : BEGIN);
  for (const [index, work] of writes.works.entries()) {
    const run = { client, stamps, work, nextRun: () => ++writes.runs[index]!, lastRun: last, savepoints };
    const previous = outcomes.at(-1);
    if (previous && savepoints) await batchStatement(client, previous.ok ? NEXT_AFTER_SUCCESS : ROLL_BACK_WRITE);
    const result = savepoints ? await runWrite(run) : await runWriteWithoutSavepoint(run);
    outcomes.push(result.outcome);
    changed ||= !result.unchanged;
  }
  if (!changed && stamps.isEmpty) {
    await batchStatement(client, 'ROLLBACK');
    return { outcomes, stamps };
  }
  const statements = savepoints && outcomes.at(-1)?.ok === false ? [ROLL_BACK_WRITE] : [];
  if (!stamps.isEmpty) statements.push(stamps.stampSql());
  statements.push('COMMIT');
  const results = await commit(client, statements.join('; '), stamps.defersRows);
  if (!stamps.isEmpty)
    stamps.settle((results[statements.length - 2] as pg.QueryResult<{ value: number }>).rows[0]!.value);
  return { outcomes, stamps };
}

/** Runs a write's work once; a failure rolls back the stamps it took and is rethrown. */
async function runWorkOnce({ client, stamps, work, nextRun, savepoints }: BatchedWriteRun): Promise<WriteResult> {
  const checkpoint = stamps.checkpoint();
  let unchanged = false;
  try {
    const value = await work({ client, stamps, attempt: nextRun(), unchanged: () => (unchanged = true) });
    return { outcome: { ok: true, value }, unchanged };
  } catch (error) {
    // In a savepoint, the write's failure rolls the database back to its start as well.
    stamps.rollBackTo(checkpoint, savepoints);
    throw error;
  }
}

/** The failure took the transaction with it: the batch must run again. */
function losesTheBatch(error: unknown, lastRun: boolean): boolean {
  return isConnectionLoss(error) || error instanceof DeferredRowsLost || (isTransientConflict(error) && !lastRun);
}

/** One write of a batch's run. */
interface BatchedWriteRun {
  readonly client: pg.PoolClient;
  readonly stamps: ChangeStamps;
  readonly work: WriteWork<unknown>;
  readonly nextRun: () => number;
  /** The batch's last run: a conflict fails the write instead of the run. */
  readonly lastRun: boolean;
  /** The write runs in a savepoint of its own. */
  readonly savepoints: boolean;
}

/** Runs one write in its savepoint until it succeeds, fails alone, or takes the transaction with it (`BatchLost`). */
async function runWrite(run: BatchedWriteRun): Promise<WriteResult> {
  const { client, lastRun } = run;
  for (let attempt = 1; ; attempt++) {
    try {
      return await runWorkOnce(run);
    } catch (error) {
      if (losesTheBatch(error, lastRun)) throw new BatchLost(error);
      if (!(error instanceof RetryWrite)) return { outcome: { ok: false, error }, unchanged: true };
      if (attempt >= MAX_ATTEMPTS) return { outcome: { ok: false, error: error.cause }, unchanged: true };
      await batchStatement(client, ROLL_BACK_WRITE);
    }
  }
}

/** Runs one write once, outside any savepoint: it succeeds, fails alone, or ends the run. */
async function runWriteWithoutSavepoint(run: BatchedWriteRun): Promise<WriteResult> {
  const { client, lastRun } = run;
  try {
    return await runWorkOnce(run);
  } catch (error) {
    if (losesTheBatch(error, lastRun)) throw new BatchLost(error);
    if (error instanceof RetryWrite) throw new SavepointsNeeded(error);
    // The work's own errors may wrap a failed statement: the transaction tells whether one failed.
    await statementAfterFailure(client, error);
    return { outcome: { ok: false, error }, unchanged: true };
  }
}

/** A statement that only succeeds when the transaction has not been aborted by a failed statement. */
async function statementAfterFailure(client: pg.PoolClient, failure: unknown): Promise<void> {
  try {
    await client.query('SELECT 1');
  } catch (error) {
    throw isConnectionLoss(error) ? new BatchLost(error) : new SavepointsNeeded(failure);
  }
}

/** One of the batch's own statements (no parameters): any failure loses the transaction. */
async function batchStatement(client: pg.PoolClient, sql: string): Promise<void> {
  try {
    await client.query(sql);
  } catch (error) {
    throw new BatchLost(error);
  }
}

/**
 * The commit's query. Only a conflict before the commit is known to have lost it all (a natural key taken meanwhile
 * fails the statement that writes the rows held back, before the COMMIT); a connection lost now leaves the outcome
 * unknown, so that error is reported as it is rather than the batch run again.
 */
async function commit(client: pg.PoolClient, sql: string, heldRows: boolean): Promise<pg.QueryResult[]> {
  try {
    return (await client.query(sql)) as unknown as pg.QueryResult[];
  } catch (error) {
    throw isTransientConflict(error) || (heldRows && isUniqueViolation(error)) ? new BatchLost(error) : error;
  }
}
