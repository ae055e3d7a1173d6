// PostgreSQL group commit: the writes of one turn share a transaction, each in its own savepoint (or none, where
// their mode allows), acknowledged after the commit; a failing write fails alone, a write that lost a race runs again
// inside the batch, and a batch whose transaction is lost (deadlock, dropped connection) runs again whole.
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { parsePostgresSpec } from '../../src/store/postgres/connection-spec.js';
import { PostgresGroupCommit } from '../../src/store/postgres/group-commit.js';
import { createPool } from '../../src/store/postgres/pool.js';
import {
  RetryWrite,
  WITHOUT_SAVEPOINT,
  type Committed,
  type WriteTransaction,
} from '../../src/store/postgres/write-transaction.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withConnection } from '../support/postgres.js';

type Work<T> = (transaction: WriteTransaction) => Promise<T>;

describePostgres('PostgreSQL group commit', () => {
  const schema = schemasDroppedAfterAll()('group_commit');
  let pool: pg.Pool;

  beforeAll(async () => {
    await withConnection((client) => client.query(`CREATE SCHEMA ${schema}`));
    pool = createPool(parsePostgresSpec(postgresSpec(schema, { poolSize: '6' })));
    await pool.query(
      'CREATE TABLE item (name text PRIMARY KEY); ' +
        'CREATE TABLE doc (doc_id bigint PRIMARY KEY, change_version bigint NOT NULL); ' +
        "CREATE TABLE meta (key text PRIMARY KEY, value bigint NOT NULL); INSERT INTO meta VALUES ('change_version', 0)",
    );
  });

  beforeEach(async () => {
    await pool.query("DELETE FROM item; DELETE FROM doc; UPDATE meta SET value = 0 WHERE key = 'change_version'");
  });

  afterAll(async () => {
    await pool?.end();
  });

  const insert =
    (name: string): Work<string> =>
    async ({ client }) => {
      await client.query('INSERT INTO item (name) VALUES ($1)', [name]);
      return name;
    };
  const committed = async () => (await pool.query<{ name: string }>('SELECT name FROM item ORDER BY name')).rows;
  const names = (...values: string[]) => values.map((name) => ({ name }));
  const transactionOf = async (client: pg.ClientBase) =>
    (await client.query<{ id: string }>('SELECT txid_current()::text AS id')).rows[0]!.id;
  const statuses = (results: readonly PromiseSettledResult<unknown>[]) => results.map((result) => result.status);
  const reasonOf = (result: PromiseSettledResult<unknown>) => (result as PromiseRejectedResult).reason as unknown;

  /** Counts the runs of `work` under `label`. */
  const counted = <T>(runs: Map<string, number>, label: string, work: Work<T>): Work<T> => {
    return (transaction) => {
      runs.set(label, (runs.get(label) ?? 0) + 1);
      return work(transaction);
    };
  };

  it('runs the writes of one turn in one transaction, visible to other connections only after its commit', async () => {
    const commits = new PostgresGroupCommit(pool);
    const transactions: string[] = [];
    const seenInside: number[] = [];
    const recorded =
      (work: Work<string>): Work<string> =>
      async (transaction) => {
        transactions.push(await transactionOf(transaction.client));
        return work(transaction);
      };
    const writes = [
      commits.run(recorded(insert('a'))),
      commits.run(
        recorded(async (transaction) => {
          const inside = await transaction.client.query<{ count: number }>('SELECT count(*)::int AS count FROM item');
          seenInside.push(inside.rows[0]!.count, (await committed()).length);
          return insert('b')(transaction);
        }),
      ),
      commits.run(recorded(insert('c'))),
    ];
    expect((await Promise.all(writes)).map((write) => write.value)).toEqual(['a', 'b', 'c']);
    expect(new Set(transactions).size).toBe(1);
    // The second write saw the first one's row, which other connections did not see yet.
    expect(seenInside).toEqual([1, 0]);
    expect(await committed()).toEqual(names('a', 'b', 'c'));
  });

  it('rolls back a failing write alone, whether a statement failed or its work threw after writing', async () => {
    const commits = new PostgresGroupCommit(pool);
    const results = await Promise.allSettled([
      commits.run(insert('a')),
      commits.run(async (transaction) => {
        await insert('b')(transaction);
        return insert('a')(transaction);
      }),
      commits.run(insert('c')),
      commits.run(async (transaction) => {
        await insert('d')(transaction);
        throw new Error('refused');
      }),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(reasonOf(results[1]!)).toMatchObject({ code: '23505' });
    expect(reasonOf(results[3]!)).toMatchObject({ message: 'refused' });
    expect(await committed()).toEqual(names('a', 'c'));
  });

  it('runs writes without savepoints where their mode allows, and all of a batch in savepoints when one asks', async () => {
    const commits = new PostgresGroupCommit(pool);
    // Transaction ids the write's connection holds after its insert: the transaction's own, and one per savepoint.
    const held: Record<string, number> = {};
    const observed =
      (name: string): Work<string> =>
      async (transaction) => {
        await insert(name)(transaction);
        const { rows } = await transaction.client.query<{ ids: number }>(
          "SELECT count(*)::int AS ids FROM pg_locks WHERE locktype = 'transactionid' AND pid = pg_backend_pid()",
        );
        held[name] = rows[0]!.ids;
        return name;
      };
    await Promise.all([commits.run(observed('a'), WITHOUT_SAVEPOINT), commits.run(observed('b'), WITHOUT_SAVEPOINT)]);
    await Promise.all([commits.run(observed('c'), WITHOUT_SAVEPOINT), commits.run(observed('d'))]);
    expect(held).toEqual({ a: 1, b: 1, c: 2, d: 2 });
    expect(await committed()).toEqual(names('a', 'b', 'c', 'd'));
  });

  it('fails a write without savepoint alone when its own code refuses before changing anything', async () => {
    const commits = new PostgresGroupCommit(pool);
    const runs = new Map<string, number>();
    const results = await Promise.allSettled([
      commits.run(counted(runs, 'a', insert('a')), WITHOUT_SAVEPOINT),
      commits.run(
        counted(runs, 'refused', async ({ client }) => {
          await client.query('SELECT 1 FROM item');
          throw new Error('refused');
        }),
        WITHOUT_SAVEPOINT,
      ),
      commits.run(counted(runs, 'c', insert('c')), WITHOUT_SAVEPOINT),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(reasonOf(results[1]!)).toMatchObject({ message: 'refused' });
    // Nothing ran again: the transaction was not aborted.
    expect(Object.fromEntries(runs)).toEqual({ a: 1, refused: 1, c: 1 });
    expect(await committed()).toEqual(names('a', 'c'));
  });

  it('runs a batch without savepoints again with them when a statement fails, so the failing write fails alone', async () => {
    const commits = new PostgresGroupCommit(pool);
    await pool.query("INSERT INTO item (name) VALUES ('taken')");
    const runs = new Map<string, number>();
    const results = await Promise.allSettled([
      commits.run(counted(runs, 'a', insert('a')), WITHOUT_SAVEPOINT),
      // The work turns the failed statement into an error of its own: the transaction still says it was aborted.
      commits.run(
        counted(runs, 'duplicate', async (transaction) => {
          try {
            return await insert('taken')(transaction);
          } catch {
            throw new Error('duplicate');
          }
        }),
        WITHOUT_SAVEPOINT,
      ),
      commits.run(
        counted(runs, 'racer', async (transaction) => {
          if (transaction.attempt === 1) throw new RetryWrite(new Error('lost'));
          return insert('racer')(transaction);
        }),
        WITHOUT_SAVEPOINT,
      ),
      commits.run(counted(runs, 'c', insert('c')), WITHOUT_SAVEPOINT),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(reasonOf(results[1]!)).toMatchObject({ message: 'duplicate' });
    expect(Object.fromEntries(runs)).toEqual({ a: 2, duplicate: 2, racer: 2, c: 1 });
    expect(await committed()).toEqual(names('a', 'c', 'racer', 'taken'));
  });

  it('runs a write that lost a race again inside its batch, and fails it alone when it keeps losing', async () => {
    const commits = new PostgresGroupCommit(pool);
    const runs = new Map<string, number>();
    const results = await Promise.allSettled([
      commits.run(counted(runs, 'a', insert('a'))),
      commits.run(
        counted(runs, 'racer', async (transaction) => {
          await insert(`racer ${transaction.attempt}`)(transaction);
          if (transaction.attempt === 1) throw new RetryWrite(new Error('lost'));
          return transaction.attempt;
        }),
      ),
      commits.run(
        counted(runs, 'loser', async (transaction) => {
          await insert(`loser ${transaction.attempt}`)(transaction);
          throw new RetryWrite(new Error('lost every time'));
        }),
      ),
      commits.run(counted(runs, 'c', insert('c'))),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseFulfilledResult<Committed<number>>).value.value).toBe(2);
    expect(reasonOf(results[2]!)).toMatchObject({ message: 'lost every time' });
    expect(Object.fromEntries(runs)).toEqual({ a: 1, racer: 2, loser: 3, c: 1 });
    expect(await committed()).toEqual(names('a', 'c', 'racer 2'));
  });

  it('runs a batch that lost a deadlock again whole, so every write in it succeeds', async () => {
    await pool.query("INSERT INTO item (name) VALUES ('p'), ('q')");
    const lock = 'SELECT 1 FROM item WHERE name = $1 FOR UPDATE';
    let bothHoldOne!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHoldOne = resolve));
    let holding = 0;
    let deadlocks = 0;
    const crossing =
      (one: string, other: string): Work<boolean> =>
      async ({ client }) => {
        await client.query(lock, [one]);
        if (++holding === 2) bothHoldOne();
        await barrier;
        try {
          await client.query(lock, [other]);
        } catch (error) {
          deadlocks += 1;
          throw error;
        }
        return true;
      };
    const runs = new Map<string, number>();
    // Two group commits on one pool: two batches in flight at once, on two connections.
    const [first, second] = [new PostgresGroupCommit(pool), new PostgresGroupCommit(pool)];
    const results = await Promise.allSettled([
      first.run(counted(runs, 'a', insert('a'))),
      first.run(crossing('p', 'q')),
      second.run(counted(runs, 'b', insert('b'))),
      second.run(crossing('q', 'p')),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    // Each batch that lost a deadlock ran its plain write again: once, unless the rerun met the other batch's locks
    // again (a loaded machine can delay the winner that long).
    expect(deadlocks).toBeGreaterThanOrEqual(1);
    expect(runs.get('a')! + runs.get('b')!).toBe(2 + deadlocks);
    expect(await committed()).toEqual(names('a', 'b', 'p', 'q'));
  });

  it("fails only the write that meets a conflict on the batch's last run", async () => {
    const commits = new PostgresGroupCommit(pool);
    const runs = new Map<string, number>();
    const conflict: Work<never> = async ({ client }) => {
      await client.query("DO $$ BEGIN RAISE EXCEPTION 'simulated' USING ERRCODE = 'deadlock_detected'; END $$");
      throw new Error('unreachable');
    };
    const results = await Promise.allSettled([
      commits.run(counted(runs, 'a', insert('a'))),
      commits.run(counted(runs, 'conflict', conflict)),
      commits.run(counted(runs, 'c', insert('c'))),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(reasonOf(results[1]!)).toMatchObject({ code: '40P01' });
    expect(Object.fromEntries(runs)).toEqual({ a: 3, conflict: 3, c: 1 });
    expect(await committed()).toEqual(names('a', 'c'));
  });

  it('runs a batch whose connection was lost again on another connection', async () => {
    const commits = new PostgresGroupCommit(pool);
    const backends = new Set<number>();
    const results = await Promise.allSettled([
      commits.run(insert('a')),
      commits.run(async (transaction) => {
        const { rows } = await transaction.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        backends.add(rows[0]!.pid);
        if (transaction.attempt === 1) await transaction.client.query('SELECT pg_terminate_backend(pg_backend_pid())');
        return insert('b')(transaction);
      }),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'fulfilled']);
    expect(backends.size).toBe(2);
    expect(await committed()).toEqual(names('a', 'b'));
  });

  it('acknowledges no write before its whole batch has committed', async () => {
    const commits = new PostgresGroupCommit(pool);
    const events: string[] = [];
    const quick = commits.run(insert('a')).then(() => events.push('quick acknowledged'));
    const slow = commits.run(async (transaction) => {
      await transaction.client.query('SELECT pg_sleep(0.2)');
      await insert('b')(transaction);
      events.push('slow written');
    });
    await Promise.all([quick, slow]);
    expect(events).toEqual(['slow written', 'quick acknowledged']);
  });

  /** Runs the named inserts in one turn; the transaction each ran in. */
  const transactionsOfTurn = async (commits: PostgresGroupCommit, items: readonly string[]) => {
    const ran = await Promise.all(
      items.map((name) =>
        commits.run(async (transaction) => {
          await insert(name)(transaction);
          return transactionOf(transaction.client);
        }),
      ),
    );
    return ran.map((write) => write.value);
  };
  /** How many writes ran in each transaction, in the order of the writes. */
  const runLengths = (transactions: readonly string[]) =>
    transactions.reduce<number[]>((lengths, id, index) => {
      if (index > 0 && id === transactions[index - 1]) lengths[lengths.length - 1]!++;
      else lengths.push(1);
      return lengths;
    }, []);

  it('splits a long queue into transactions of the configured size', async () => {
    const commits = new PostgresGroupCommit(pool, { maxBatch: 2 });
    const transactions = await transactionsOfTurn(commits, ['a', 'b', 'c', 'd', 'e']);
    expect(runLengths(transactions)).toEqual([2, 2, 1]);
    expect(new Set(transactions).size).toBe(3);
    expect(await committed()).toEqual(names('a', 'b', 'c', 'd', 'e'));
  });

  it('keeps a turn of a few writes in one transaction, and splits one of many into a few side by side', async () => {
    const commits = new PostgresGroupCommit(pool);
    const few = Array.from({ length: 15 }, (_, index) => `few ${index}`);
    expect(runLengths(await transactionsOfTurn(commits, few))).toEqual([15]);
    const many = Array.from({ length: 40 }, (_, index) => `many ${index}`);
    const transactions = await transactionsOfTurn(commits, many);
    expect(runLengths(transactions)).toEqual([10, 10, 10, 10]);
    expect(new Set(transactions).size).toBe(4);
    expect(await committed()).toHaveLength(55);
  });

  it("numbers the batch's change versions in write order, without the versions of a write rolled back", async () => {
    const commits = new PostgresGroupCommit(pool);
    const stampedInsert =
      (docId: number, restamp?: number): Work<number> =>
      async ({ client, stamps }) => {
        await client.query('INSERT INTO doc (doc_id, change_version) VALUES ($1, 0)', [docId]);
        const slot = stamps.stampRow('doc', docId);
        if (restamp === undefined) return slot;
        stamps.stampRow('doc', restamp);
        throw new Error('refused');
      };
    const results = await Promise.allSettled([
      commits.run(stampedInsert(1)),
      commits.run(stampedInsert(2, 1)),
      commits.run(stampedInsert(3)),
    ]);
    expect(statuses(results)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const versions = [results[0]!, results[2]!].map((result) => {
      const { value: slot, stamps } = (result as PromiseFulfilledResult<Committed<number>>).value;
      return stamps.versionOf(slot);
    });
    expect(versions).toEqual([1, 2]);
    const { rows } = await pool.query('SELECT doc_id, change_version FROM doc ORDER BY doc_id');
    expect(rows).toEqual([
      { doc_id: 1, change_version: 1 },
      { doc_id: 3, change_version: 2 },
    ]);
    expect((await pool.query("SELECT value FROM meta WHERE key = 'change_version'")).rows).toEqual([{ value: 2 }]);
  });
});
