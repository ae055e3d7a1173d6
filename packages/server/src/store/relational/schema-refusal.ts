// What `open` says when the database does not hold the schema this release expects, whatever the database.
import { StoreSchemaError, type SchemaStatus } from '../store.js';

const SCHEMA_REFUSALS: Record<Exclude<SchemaStatus, 'current'>, string> = {
  empty: 'The database has no schema yet; run `edfi-api migrate` (or start with --migrate)',
  outdated: 'The database schema is older than this release or model; run `edfi-api migrate` (or start with --migrate)',
};

/** Throws the StoreSchemaError `open` raises unless the schema is current. */
export function assertSchemaCurrent(status: SchemaStatus): void {
  if (status !== 'current') throw new StoreSchemaError(status, SCHEMA_REFUSALS[status]);
}
