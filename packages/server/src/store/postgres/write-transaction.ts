// What a write's work runs on: the transaction of its group-commit batch (group-commit.ts), inside the write's own
// savepoint, on the batch's pooled connection, with the change stamps the batch's commit numbers (change-stamps.ts).
import type pg from 'pg';
import type { ChangeStamps } from './change-stamps.js';

/** Runs of one write (a `RetryWrite`) or of one batch (a lost transaction) at most. */
export const MAX_ATTEMPTS = 3;

export interface WriteTransaction {
  readonly client: pg.PoolClient;
  readonly stamps: ChangeStamps;
  /** 1 on the first run; a later run may distrust what memory cached (descriptors). */
  readonly attempt: number;
  /** Marks a write that found nothing to change: a batch of only such writes ends in a ROLLBACK (no WAL flush). */
  unchanged(): void;
}

/** A write's work, run again from its start on every retry. */
export type WriteWork<T> = (transaction: WriteTransaction) => Promise<T>;

/** How a write runs in its batch. */
export interface WriteMode {
  /**
   * In a savepoint of its own (one more round trip), so that a failure rolls back what it changed. Work that raises
   * its own errors only before its first change may run without: its failure leaves nothing to undo, and a failed
   * statement (which aborts the transaction) makes the batch run again with savepoints.
   */
  readonly savepoint: boolean;
}

export const WITH_SAVEPOINT: WriteMode = { savepoint: true };
export const WITHOUT_SAVEPOINT: WriteMode = { savepoint: false };

/**
 * Raised by a write's work when a concurrent transaction changed what it relied on: the write is rolled back to its
 * savepoint and run again; `cause` is reported if the retries run out.
 */
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
