// Opens and closes the SQLite connection with the settings the store relies on (WAL, foreign keys, busy timeout).
import Database from 'better-sqlite3';
import { closeSync, openSync, statSync } from 'node:fs';
import { isBusy } from './sql-errors.js';
import { foldCase } from '../relational/table-layout.js';

export interface ConnectionOptions {
  /** `NORMAL` (default) can lose the last commits on power loss but never corrupts; `FULL` syncs every commit. */
  readonly synchronous?: 'NORMAL' | 'FULL';
  /** How long a writer waits for another process's write lock. */
  readonly busyTimeoutMs?: number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
/** Negative means KiB: 64 MiB of page cache per connection. */
const CACHE_SIZE = -65_536;
/**
 * Checkpoint every 10,000 WAL pages (~40 MiB) instead of SQLite's 1,000: each checkpoint pays two fsyncs and rewrites
 * hot index pages once however often they were committed, so rarer checkpoints cut the mean cost of a write by about
 * a third on this project's machine (bench/store-ceiling.ts), at the price of a longer pause when one runs.
 */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** After a checkpoint resets the WAL, SQLite truncates a file grown past this back to it. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

const WAL_RETRY_MS = 10;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switching a file to WAL answers SQLITE_BUSY at once, without the busy handler, while another process is setting up
 * the same new file (several nodes or workers starting together): wait and try again, up to the busy timeout.
 */
function switchToWal(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      Atomics.wait(sleeper, 0, 0, WAL_RETRY_MS);
    }
  }
}

/** Owner read and write only: the store holds every student's data and the clients' secrets' hashes. */
const NEW_FILE_MODE = 0o600;

/**
 * Creates a database file that does not exist yet as `NEW_FILE_MODE`; SQLite gives its WAL and shared-memory files the
 * mode of the database file. An existing file keeps the mode its owner gave it.
 */
function createPrivately(file: string): void {
  if (file === ':memory:' || file === '' || file.startsWith('file:')) return;
  try {
    closeSync(openSync(file, 'wx', NEW_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** @param source a file path, `:memory:`, or a serialized database to open as an in-memory copy */
export function openConnection(source: string | Buffer, options: ConnectionOptions = {}): Database.Database {
  if (typeof source === 'string') createPrivately(source);
  const db = new Database(source);
  try {
    // busy_timeout first: switching to WAL needs a lock another process may hold.
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    if (!db.memory) {
      switchToWal(db, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    }
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = ${CACHE_SIZE}`);
    db.pragma('temp_store = MEMORY');
    // SQLite's lower() folds ASCII only; filters must fold exactly like the natural keys do.
    db.function('casefold', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? foldCase(value) : value,
    );
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The size of the database's WAL file; 0 for an in-memory database or no WAL. */
export function walBytes(db: Database.Database, location: string): number {
  if (db.memory) return 0;
  try {
    return statSync(`${location}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * Copies what it can of the WAL into the database and truncates it: after snapshots that held checkpoints back are
 * released. A failure (another connection busy) is left to the next automatic checkpoint.
 */
export function checkpointWal(db: Database.Database): void {
  if (!db.open || db.memory || db.inTransaction) return;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // The automatic checkpoint of the next commits will get there.
  }
}

/** Moves the WAL into the main file and truncates it, so the database file alone is a complete copy. */
export function closeConnection(db: Database.Database): void {
  if (!db.memory) db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/**
 * A connection that sees the database as it is now, and keeps seeing it so until closed. On a file it holds a read
 * transaction open (WAL keeps that moment readable; checkpoints cannot pass it, so the WAL grows meanwhile); an
 * in-memory database has no second connection, so it gets a copy.
 */
export function openSnapshotConnection(
  live: Database.Database,
  location: string,
  options: ConnectionOptions = {},
): Database.Database {
  if (live.memory) return openConnection(live.serialize(), options);
  const db = openConnection(location, options);
  try {
    db.exec('BEGIN');
    // The first read of a transaction fixes the moment it sees.
    db.prepare('SELECT count(*) FROM meta').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
