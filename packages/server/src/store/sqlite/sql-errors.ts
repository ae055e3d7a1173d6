// Recognizes the SQLite failures the store handles: constraint failures (store errors) and busy locks (retried).
import Database from 'better-sqlite3';

/** SQLite reports an ON DELETE RESTRICT foreign key as a TRIGGER constraint. */
type ConstraintKind = 'FOREIGNKEY' | 'TRIGGER' | 'UNIQUE' | 'PRIMARYKEY';

export function isConstraintViolation(error: unknown, ...kinds: ConstraintKind[]): boolean {
  return error instanceof Database.SqliteError && kinds.some((kind) => error.code === `SQLITE_CONSTRAINT_${kind}`);
}

/** Another connection holds the lock (SQLITE_BUSY and its extended codes). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
