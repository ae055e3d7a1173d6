// A WAL database file in a temporary folder with a table `item (name)`, open on two connections: the one under test
// and another one that plays a second process.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

export interface TwoConnections {
  readonly db: Database.Database;
  readonly other: Database.Database;
}

/** Registers the set-up and clean-up hooks; the returned getter gives the current test's connections. */
export function withTwoConnections(initialItems: readonly string[] = []): () => TwoConnections {
  let directory = '';
  let current: TwoConnections | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'two-connections-'));
    const file = join(directory, 'db.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE item (name TEXT PRIMARY KEY)');
    for (const name of initialItems) db.prepare('INSERT INTO item (name) VALUES (?)').run(name);
    current = { db, other: new Database(file) };
  });
  afterEach(() => {
    current?.other.close();
    current?.db.close();
    current = undefined;
    rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    if (current === undefined) throw new Error('only inside a test');
    return current;
  };
}
