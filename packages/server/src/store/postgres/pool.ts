// The connection pool every part of the PostgreSQL store shares: sized from the spec, connections starting with the
// store's schema as their search path, and int8 values parsed as JS numbers (doc ids and change versions stay below
// 2^53), on this pool only so that other pg users in the process keep the driver's defaults.
import pg from 'pg';
import type { PostgresConnectionSpec } from './connection-spec.js';

function parseInt8(value: string): number {
  return Number(value);
}

const poolTypes: pg.CustomTypesConfig = {
  getTypeParser: (oid, format) => (oid === pg.types.builtins.INT8 ? parseInt8 : pg.types.getTypeParser(oid, format)),
};

export function createPool(spec: PostgresConnectionSpec): pg.Pool {
  const pool = new pg.Pool({ connectionString: spec.connectionString, max: spec.poolSize, types: poolTypes });
  // An idle connection the server drops (restart, idle timeout) is reported here; the pool has already discarded
  // it and opens a new one on demand, so there is nothing to do, but an unheard 'error' event would end the process.
  pool.on('error', () => {});
  return pool;
}

/** Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A connection of its own, outside the pool, configured like the pool's (snapshots hold one for minutes). */
export function createClient(spec: PostgresConnectionSpec): pg.Client {
  const client = new pg.Client({ connectionString: spec.connectionString, types: poolTypes });
  // A dropped connection fails the next query that uses it; the event alone must not end the process.
  client.on('error', () => {});
  return client;
}
