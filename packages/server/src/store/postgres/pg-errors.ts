// Recognizes the PostgreSQL errors the write path turns into store errors or retries, by SQLSTATE.
import pg from 'pg';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';

function sqlStateOf(error: unknown): string | undefined {
  return error instanceof pg.DatabaseError ? error.code : undefined;
}

/** A unique or primary key violation; with `table`, only one detected on that table. */
export function isUniqueViolation(error: unknown, table?: string): boolean {
  if (sqlStateOf(error) !== UNIQUE_VIOLATION) return false;
  return table === undefined || (error as pg.DatabaseError).table === table;
}

export function isForeignKeyViolation(error: unknown): boolean {
  return sqlStateOf(error) === FOREIGN_KEY_VIOLATION;
}

/** A conflict between concurrent transactions that the whole transaction, run again, gets past. */
export function isTransientConflict(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === DEADLOCK_DETECTED || state === SERIALIZATION_FAILURE;
}
