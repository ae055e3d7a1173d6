// Starts the built server (`edfi-api serve`) in a child process and reads its CPU time (all workers) from /proc.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cliEntry = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const clockTicksPerSecond = 100;

export interface ServerProcess {
  readonly url: string;
  /** User + system CPU seconds of the server and all its workers so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export function builtCliAvailable(): boolean {
  return existsSync(cliEntry);
}

export function runCli(args: readonly string[]): string {
  return execFileSync(process.execPath, [cliEntry, ...args], { encoding: 'utf8' });
}

function descendantsOf(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  const direct = children === '' ? [] : children.split(/\s+/).map(Number);
  return [pid, ...direct.flatMap((child) => descendantsOf(child))];
}

function cpuTicksOf(pid: number): number {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

async function waitForListening(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v7.3/api/`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start within 30 s');
}

/** Whether processes can be pinned to CPUs here (Linux `taskset`). */
export function canPin(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of a running process to the CPUs in `list` (e.g. `1`, `0-1`). */
export function pinProcess(pid: number, list: string): void {
  execFileSync('taskset', ['-a', '-pc', list, String(pid)], { stdio: 'ignore' });
}

export interface ServerStartOptions {
  readonly store: string;
  readonly port: number;
  readonly workers: number;
  /** CPUs the server and its workers run on (`taskset -c`); anywhere when absent. */
  readonly cpus?: string;
}

export async function startServer(options: ServerStartOptions): Promise<ServerProcess> {
  const serveArgs = [
    cliEntry,
    'serve',
    '--store',
    options.store,
    '--port',
    String(options.port),
    '--workers',
    String(options.workers),
  ];
  const [command, args] =
    options.cpus === undefined
      ? [process.execPath, serveArgs]
      : ['taskset', ['-c', options.cpus, process.execPath, ...serveArgs]];
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForListening(child, options.port);
  return {
    url: `http://127.0.0.1:${options.port}/v7.3/api`,
    cpuSeconds: () => descendantsOf(child.pid!).reduce((sum, pid) => sum + cpuTicksOf(pid), 0) / clockTicksPerSecond,
    stop: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
