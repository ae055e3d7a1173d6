// CPU time of a process tree from /proc (Linux): the server and its workers, or PostgreSQL's postmaster and backends.
import { readFileSync } from 'node:fs';

const clockTicksPerSecond = 100;

function descendantsOf(pid: number): number[] {
  let children = '';
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  } catch {
    // the process has just exited
  }
  const direct = children === '' ? [] : children.split(/\s+/).map(Number);
  return [pid, ...direct.flatMap((child) => descendantsOf(child))];
}

/** utime, stime, cutime and cstime (clock ticks): the 14th to 17th fields of /proc/<pid>/stat. */
function cpuTicksOf(pid: number): { own: number; reapedChildren: number } {
  try {
    // The command name may hold spaces; the fields after it start with the state (the 3rd field).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return {
      own: Number(fields[11]) + Number(fields[12]),
      reapedChildren: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return { own: 0, reapedChildren: 0 };
  }
}

/**
 * User + system CPU seconds of a process and its live descendants, plus (for the root) the children it has already
 * reaped: PostgreSQL backends come and go with connections, and an exited one's time moves into its parent's counts.
 */
export function cpuSecondsOfTree(root: number): number {
  const ticks = descendantsOf(root).reduce((sum, pid) => sum + cpuTicksOf(pid).own, 0);
  return (ticks + cpuTicksOf(root).reapedChildren) / clockTicksPerSecond;
}

/** The process's command name; undefined when it cannot be read here (another machine or container). */
export function commandNameOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The parent process id, from /proc/<pid>/stat (4th field). */
export function parentOf(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
}
