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
