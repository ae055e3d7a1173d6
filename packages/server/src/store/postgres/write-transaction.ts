// Runs one write as one READ COMMITTED transaction on a pooled connection, ending in the change-version stamping and
// COMMIT of change-stamps.ts, and runs the whole transaction again (3 attempts in all, after a short random pause)
// when it lost a race another transaction won: a deadlock, a serialization failure, or a `RetryWrite` its work raised.
import type pg from 'pg';
import { ChangeStamps } from './change-stamps.js';
import { isTransientConflict } from './pg-errors.js';

const MAX_ATTEMPTS = 3;
const MAX_PAUSE_MS = 8;

/** What a write's work runs on. */
export interface WriteTransaction {
  readonly client: pg.PoolClient;
  readonly stamps: ChangeStamps;
  /** 1 on the first run; a later run may distrust what memory cached (descriptors). */
  readonly attempt: number;
  /** Marks a write that found nothing to change: it ends in a ROLLBACK, which needs no WAL flush. */
  unchanged(): void;
}

/** Raised by a write's work when a concurrent transaction changed what it relied on; `cause` is reported if the
 * retries run out. */
export class RetryWrite extends Error {
  constructor(override readonly cause: unknown) {
    super('The write lost a race with a concurrent transaction');
    this.name = 'RetryWrite';
  }
}

export interface Committed<T> {
  readonly value: T;
  /** The versions the commit stamped. */
  readonly stamps: ChangeStamps;
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * MAX_PAUSE_MS));
}

async function attemptOnce<T>(
  pool: pg.Pool,
  attempt: number,
  work: (transaction: WriteTransaction) => Promise<T>,
): Promise<Committed<T>> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const stamps = new ChangeStamps();
    let unchanged = false;
    const value = await work({ client, stamps, attempt, unchanged: () => (unchanged = true) });
    if (unchanged && stamps.isEmpty) {
      await client.query('ROLLBACK');
    } else if (stamps.isEmpty) {
      await client.query('COMMIT');
    } else {
      const [stamped] = (await client.query(stamps.commitSql())) as unknown as pg.QueryResult<{ value: number }>[];
      stamps.settle(stamped!.rows[0]!.value);
    }
    return { value, stamps };
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    // A connection that cannot even roll back is discarded, not handed to the next write.
    client.release(broken);
  }
}

export async function runWriteTransaction<T>(
  pool: pg.Pool,
  work: (transaction: WriteTransaction) => Promise<T>,
): Promise<Committed<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptOnce(pool, attempt, work);
    } catch (error) {
      const retryable = error instanceof RetryWrite || isTransientConflict(error);
      if (!retryable) throw error;
      if (attempt >= MAX_ATTEMPTS) throw error instanceof RetryWrite ? error.cause : error;
      await pause();
    }
  }
}
