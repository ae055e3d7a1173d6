// A PostgreSQL table's activity counters (pg_stat_user_tables), which each connection reports when it ends.
import { withConnection } from '../support/postgres.js';

const STATISTICS_WAIT_MS = 30_000;

/**
 * The table's counters, each given as a column of pg_stat_user_tables, once `inserted` inserts are reported (or after
 * half a minute, when they never are).
 */
export async function tableCountersAfter<Name extends string>(
  schema: string,
  table: string,
  inserted: number,
  columns: Readonly<Record<Name | 'inserted', string>>,
): Promise<Record<Name | 'inserted', number>> {
  const selected = Object.entries<string>(columns).map(([name, column]) => `${column}::int AS "${name}"`);
  return withConnection(async (client) => {
    const deadline = Date.now() + STATISTICS_WAIT_MS;
    for (;;) {
      await client.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await client.query<Record<Name | 'inserted', number>>(
        `SELECT ${selected.join(', ')} FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2`,
        [schema, table],
      );
      if (rows[0]!.inserted >= inserted || Date.now() > deadline) return rows[0]!;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
}
