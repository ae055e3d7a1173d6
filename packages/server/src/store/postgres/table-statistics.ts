// Planner statistics for the tables a load through the API fills. A table that was never analyzed has none, and the
// planner then takes an equality filter to match 0.5 % of the rows, custom plans as much as generic ones: a list
// filtered on a value every row has (a school's enrolments by its schoolId) is read whole through the filter's index
// and sorted, instead of in doc_id order up to the page's end (50 ms against 0.3 ms at 14,000 rows). Autovacuum
// analyzes a table on its next pass at best (a minute apart by default; never when it is off), and only the direct
// loader runs ANALYZE itself. So the store does, off the request path: once this process has created enough rows in a
// table, and at most once per table per interval, it checks whether the table has changed by as many rows as it had at
// its last analyze (the counters are the database's, so several API nodes judge alike) and then analyzes it. The
// threshold doubles with the table, so a load of n rows costs a few ANALYZEs (each samples at most 30,000 rows), and
// an ANALYZE makes every connection replan its prepared statements on the table.
import type pg from 'pg';
import { quoteIdentifier } from './connection-spec.js';
import { inTransaction } from './pool.js';

/** Rows this process creates in a table between two checks of its statistics. */
const CHECK_AFTER_ROWS = 1_000;
/** The least time between two checks of one table by this process. */
const CHECK_INTERVAL_MS = 2_000;
/** Changed rows since the last analyze that make a table stale, at least (else as many as it had then). */
const MIN_CHANGED_ROWS = 1_000;
/**
 * A check that finds the table not stale is made once more this much later: PostgreSQL shows a busy backend's row
 * counts only after it has been idle up to 10 s, so the last rows of a load may not be counted at the first check.
 */
const COUNTER_LAG_MS = 11_000;
/** Identifies the analyze lock among this application's advisory locks (the second key is the table's oid). */
const ANALYZE_LOCK_CLASS = 0x45644153;

/**
 * True, under a transaction-level advisory lock, when the table is stale and no other process is analyzing it. The
 * lock is asked for only then: CASE decides the order.
 */
const STALE_AND_LOCKED =
  'SELECT CASE WHEN s.n_mod_since_analyze >= greatest($2::float8, c.reltuples) ' +
  'THEN pg_try_advisory_xact_lock($3, c.oid::int) ELSE false END AS analyze ' +
  'FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = $1::regclass';

interface TableGrowth {
  /** Rows created since the last check. */
  created: number;
  lastCheck: number;
  /** A check is scheduled or running. */
  pending: boolean;
}

export class PostgresTableStatistics {
  readonly #tables = new Map<string, TableGrowth>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #checks = new Set<Promise<void>>();
  #closed = false;

  constructor(private readonly pool: pg.Pool) {}

  /** Counts a row a committed write created in `table` (a table of the store's schema). */
  created(table: string): void {
    let growth = this.#tables.get(table);
    if (growth === undefined) {
      growth = { created: 0, lastCheck: 0, pending: false };
      this.#tables.set(table, growth);
    }
    growth.created++;
    this.#schedule(table, growth);
  }

  /** Cancels the scheduled checks and waits for the running ones. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.all(this.#checks);
  }

  #schedule(table: string, growth: TableGrowth): void {
    if (this.#closed || growth.pending || growth.created < CHECK_AFTER_ROWS) return;
    this.#checkLater(table, growth, Math.max(0, growth.lastCheck + CHECK_INTERVAL_MS - Date.now()), true);
  }

  #checkLater(table: string, growth: TableGrowth, delay: number, againIfFresh: boolean): void {
    growth.pending = true;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      growth.created = 0;
      growth.lastCheck = Date.now();
      let again = false;
      // A failed check (a lost connection, the pool closing) only leaves the statistics to a later one.
      const check: Promise<void> = this.#check(table)
        .then((analyzed) => void (again = !analyzed && againIfFresh))
        .catch(() => {})
        .finally(() => {
          this.#checks.delete(check);
          growth.pending = false;
          if (again && !this.#closed) this.#checkLater(table, growth, COUNTER_LAG_MS, false);
          else this.#schedule(table, growth);
        });
      this.#checks.add(check);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Whether the table was analyzed. */
  async #check(table: string): Promise<boolean> {
    const name = quoteIdentifier(table);
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ analyze: boolean }>(STALE_AND_LOCKED, [
        name,
        MIN_CHANGED_ROWS,
        ANALYZE_LOCK_CLASS,
      ]);
      if (rows[0]?.analyze !== true) return false;
      await client.query(`ANALYZE ${name}`);
      return true;
    });
  }
}
