// Group reads: the reads of one event-loop turn run in one read transaction, so they see one moment of the database;
// a failing read fails alone; the next turn's reads see what was committed since.
import { describe, expect, it } from 'vitest';
import { GroupReads } from '../../src/store/sqlite/group-reads.js';
import { withTwoConnections } from './two-connections.js';

const connections = withTwoConnections(['a']);

const count = () => connections().db.prepare('SELECT count(*) FROM item').pluck().get();
const insertElsewhere = (name: string) => connections().other.prepare('INSERT INTO item (name) VALUES (?)').run(name);

describe('GroupReads', () => {
  it('answers the reads of one turn from one moment, and later turns from a later one', async () => {
    const reads = new GroupReads(connections().db);
    const sameTurn = [
      reads.run(() => {
        const seen = count();
        // Another connection commits between two reads of the batch.
        insertElsewhere('b');
        return seen;
      }),
      reads.run(count),
    ];
    expect(await Promise.all(sameTurn)).toEqual([1, 1]);
    expect(await reads.run(count)).toBe(2);
  });

  it('fails a failing read alone', async () => {
    const reads = new GroupReads(connections().db);
    const results = await Promise.allSettled([
      reads.run(count),
      reads.run(() => connections().db.prepare('SELECT * FROM missing').get()),
      reads.run(count),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('answers what is pending when drained', async () => {
    const reads = new GroupReads(connections().db);
    let answered = false;
    const pending = reads.run(count).then((value) => {
      answered = true;
      return value;
    });
    reads.drain();
    expect(await pending).toBe(1);
    expect(answered).toBe(true);
  });
});
