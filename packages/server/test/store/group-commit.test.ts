// Group commit: writes of one event-loop turn share a transaction, each in its own savepoint, acknowledged after the
// commit; a failing write fails alone, and a failure that takes the whole transaction fails every write in it.
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/store/sqlite/group-commit.js';
import { withTwoConnections } from './two-connections.js';

const connections = withTwoConnections();

const insert = (name: string) => () => connections().db.prepare('INSERT INTO item (name) VALUES (?)').run(name).changes;
const committed = () => connections().other.prepare('SELECT name FROM item ORDER BY name').pluck().all();

describe('GroupCommit', () => {
  it('runs the writes of one turn in one transaction, visible to other connections only after its commit', async () => {
    const commits = new GroupCommit(connections().db);
    const seenInside: unknown[] = [];
    const writes = [
      commits.run(insert('a')),
      commits.run(() => {
        seenInside.push(connections().db.prepare('SELECT count(*) FROM item').pluck().get(), committed().length);
        return insert('b')();
      }),
      commits.run(insert('c')),
    ];
    expect(committed()).toEqual([]);
    expect(await Promise.all(writes)).toEqual([1, 1, 1]);
    // The second write saw the first one's row, which other connections did not see yet.
    expect(seenInside).toEqual([1, 0]);
    expect(committed()).toEqual(['a', 'b', 'c']);
  });

  it('rolls back a failing write alone', async () => {
    const commits = new GroupCommit(connections().db);
    const results = await Promise.allSettled([
      commits.run(insert('a')),
      commits.run(() => {
        insert('b')();
        insert('a')();
      }),
      commits.run(insert('c')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed()).toEqual(['a', 'c']);
  });

  it('fails every write of a batch whose transaction is lost, and reports it', async () => {
    let failures = 0;
    const commits = new GroupCommit(connections().db, { onBatchFailure: () => failures++ });
    const results = await Promise.allSettled([
      commits.run(insert('a')),
      commits.run(() => {
        insert('b')();
        // What SQLite does on some I/O and disk-full errors: the whole transaction is rolled back.
        connections().db.exec('ROLLBACK');
        throw new Error('disk I/O error');
      }),
      commits.run(insert('c')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(failures).toBe(1);
    expect(committed()).toEqual([]);
    expect(await commits.run(insert('d'))).toBe(1);
    expect(committed()).toEqual(['d']);
  });

  it('splits a long queue into batches of the configured size, and drains what is pending on demand', async () => {
    const commits = new GroupCommit(connections().db, { maxBatch: 2 });
    const writes = ['a', 'b', 'c', 'd', 'e'].map((name) => commits.run(insert(name)));
    commits.drain();
    expect(committed()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await Promise.all(writes)).toEqual([1, 1, 1, 1, 1]);
  });

  describe('when another process holds the write lock', () => {
    const holdLock = () => connections().other.exec('BEGIN IMMEDIATE');
    const releaseLock = () => connections().other.exec('COMMIT');
    const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('waits on a timer, serving other work meanwhile, and commits once the lock is free', async () => {
      const commits = new GroupCommit(connections().db);
      const events: string[] = [];
      holdLock();
      const write = commits.run(insert('a')).then(() => events.push('write committed'));
      await tick(20);
      events.push('event loop ran');
      releaseLock();
      await write;
      expect(events).toEqual(['event loop ran', 'write committed']);
      expect(committed()).toEqual(['a']);
    });

    it('fails the writes of a batch that waited longer than the lock wait', async () => {
      const commits = new GroupCommit(connections().db, { lockWaitMs: 30 });
      holdLock();
      await expect(commits.run(insert('a'))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      releaseLock();
      expect(committed()).toEqual([]);
      expect(await commits.run(insert('b'))).toBe(1);
    });

    it('commits a waiting batch when drained', async () => {
      const commits = new GroupCommit(connections().db);
      holdLock();
      const write = commits.run(insert('a'));
      await tick(5);
      releaseLock();
      commits.drain();
      expect(committed()).toEqual(['a']);
      expect(await write).toBe(1);
    });
  });
});
