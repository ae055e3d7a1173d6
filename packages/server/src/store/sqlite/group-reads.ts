// Group reads: the reads of one event-loop turn run back to back in one read transaction. Between two requests'
// reads the HTTP work of the others used to push SQLite's pages and code out of the CPU caches, and every statement
// opened and closed its own read transaction (two file-lock system calls on the WAL index); together a read costs
// about half. Each read still sees every write acknowledged before it was issued: those have committed. The store sends
// the reads that answer GET requests this way, and the reads a write makes first (the natural-key probe of a POST and
// the authorization probes): run one by one outside a transaction, those two cost a POST of an association about a
// tenth of its CPU, more than the turn they now wait.
import type Database from 'better-sqlite3';
import { TurnBatches, type PendingWork } from '../relational/turn-batches.js';

export class GroupReads {
  readonly #batches: TurnBatches;

  constructor(db: Database.Database) {
    const answer = (batch: readonly PendingWork[]): void => {
      for (const read of batch) {
        try {
          read.resolve(read.work());
        } catch (error) {
          read.reject(error);
        }
      }
    };
    const inReadTransaction = db.transaction(answer);
    this.#batches = new TurnBatches((batch) => {
      // A lone read gains nothing from a transaction of its own (each statement sees the latest commit, as unbatched).
      if (batch.length === 1) return answer(batch);
      try {
        inReadTransaction.deferred(batch);
      } catch (error) {
        // Only the transaction's own BEGIN or COMMIT can fail here; reads already answered keep their answers.
        for (const read of batch) read.reject(error);
      }
    });
  }

  run<T>(read: () => T): Promise<T> {
    return this.#batches.run(read);
  }

  drain(): void {
    this.#batches.drain();
  }
}
