// Group reads: the reads of one event-loop turn run in one read transaction, so they see one moment of the database;
// a failing read fails alone; the next turn's reads see what was committed since.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupReads } from '../../src/store/sqlite/group-reads.js';

let directory: string;
let db: Database.Database;
let writer: Database.Database;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'group-reads-'));
  const file = join(directory, 'db.sqlite');
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE item (name TEXT PRIMARY KEY); INSERT INTO item VALUES ('a')");
  writer = new Database(file);
});

afterEach(() => {
  writer.close();
  db.close();
  rmSync(directory, { recursive: true, force: true });
});

const count = () => db.prepare('SELECT count(*) FROM item').pluck().get();
const insertElsewhere = (name: string) => writer.prepare('INSERT INTO item (name) VALUES (?)').run(name);

describe('GroupReads', () => {
  it('answers the reads of one turn from one moment, and later turns from a later one', async () => {
    const reads = new GroupReads(db);
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
    const reads = new GroupReads(db);
    const results = await Promise.allSettled([
      reads.run(count),
      reads.run(() => db.prepare('SELECT * FROM missing').get()),
      reads.run(count),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('answers what is pending when drained', async () => {
    const reads = new GroupReads(db);
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
