// Recognizes the SQLite constraint failures the write path turns into store errors.
import Database from 'better-sqlite3';

/** SQLite reports an ON DELETE RESTRICT foreign key as a TRIGGER constraint. */
type ConstraintKind = 'FOREIGNKEY' | 'TRIGGER' | 'UNIQUE' | 'PRIMARYKEY';

export function isConstraintViolation(error: unknown, ...kinds: ConstraintKind[]): boolean {
  return error instanceof Database.SqliteError && kinds.some((kind) => error.code === `SQLITE_CONSTRAINT_${kind}`);
}
