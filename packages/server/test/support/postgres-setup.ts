// vitest's global setup for the PostgreSQL suites: checks once per run that the database in EDFI_TEST_POSTGRES
// (default postgres://postgres@127.0.0.1:5432/test) answers. When it does not, the suites are skipped with one printed
// line, or the run fails when EDFI_REQUIRE_POSTGRES=1 (as in CI). Test files read the answer through postgres.ts.
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresReachable: boolean;
  }
}

export const POSTGRES_TEST_URL = process.env.EDFI_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONNECT_TIMEOUT_MS = 3_000;

async function reachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_TEST_URL, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** vitest global setup (vitest.config.ts `globalSetup`). */
export default async function setup(project: TestProject): Promise<void> {
  const failure = await reachable();
  if (failure !== undefined) {
    const message = `PostgreSQL at ${POSTGRES_TEST_URL} is not reachable (${failure})`;
    if (process.env.EDFI_REQUIRE_POSTGRES === '1') throw new Error(`${message}; EDFI_REQUIRE_POSTGRES=1 requires it`);
    console.log(`${message}: skipping the PostgreSQL suites`);
  }
  project.provide('postgresReachable', failure === undefined);
}
