// CPU of the PostgreSQL server while a benchmark runs: the postmaster and all its children (backends, WAL writer,
// checkpointer, …), read from /proc when the database runs on this machine, as it shares the cores with the server.
import { withPostgresClient } from './bench-stores.js';
import { commandNameOf, cpuSecondsOfTree, parentOf } from './process-cpu.js';

/** The database server's CPU seconds so far. */
export type DatabaseCpu = () => number;

/** How to read the CPU of the PostgreSQL server a spec names; undefined when its processes are not visible here. */
export async function postgresCpu(spec: string): Promise<DatabaseCpu | undefined> {
  const postmaster = await withPostgresClient(spec, async (client) => {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = rows[0]!.pid;
    // A backend of a database elsewhere may share its pid with an unrelated local process.
    return commandNameOf(backend) === 'postgres' ? parentOf(backend) : undefined;
  });
  return postmaster === undefined ? undefined : () => cpuSecondsOfTree(postmaster);
}
