// Recognizes the PostgreSQL errors the write path turns into store errors or retries: by SQLSTATE, and a lost
// connection also by the errors node-postgres and the socket raise (they carry no SQLSTATE).
import pg from 'pg';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const SERIALIZATION_FAILURE = '40001';
const DEADLOCK_DETECTED = '40P01';
/** Class 08 (connection exception) and the shutdown states of class 57 (operator intervention). */
const CONNECTION_STATES = /^(08|57P0[123])/;
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** node-postgres's own messages for a connection that ended or broke under a query. */
const DRIVER_MESSAGES = /^(Connection terminated|Client has encountered a connection error)/;

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

/** The connection is gone (server shutdown, killed backend, network): the transaction on it is lost. */
export function isConnectionLoss(error: unknown): boolean {
  const state = sqlStateOf(error);
  if (state !== undefined) return CONNECTION_STATES.test(state);
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  return (typeof code === 'string' && SOCKET_CODES.has(code)) || DRIVER_MESSAGES.test(error.message);
}
