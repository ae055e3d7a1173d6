// Starts a checkout's built server (`edfi-api serve`) in a child process and reads its CPU time (all workers) from
// /proc; runs the same checkout's other CLI commands.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import type { BuiltCli } from './checkouts.js';
import { cpuSecondsOfTree } from './process-cpu.js';

export interface ServerProcess {
  readonly url: string;
  /** The process `serve` runs in (the primary when it forks workers). */
  readonly pid: number;
  /** User + system CPU seconds of the server and all its workers so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export function runCli(cli: BuiltCli, args: readonly string[]): string {
  return execFileSync(process.execPath, [cli.entry, ...args], { encoding: 'utf8' });
}

async function waitForListening(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start within 30 s');
}

export interface ServerStartOptions {
  readonly cli: BuiltCli;
  readonly store: string;
  readonly port: number;
  readonly workers: number;
  /** CPUs the server and its workers run on (`taskset -c`); anywhere when absent. */
  readonly cpus?: string;
  /** Further `serve` options, e.g. `--instances <file>`. */
  readonly serveOptions?: readonly string[];
  /** Where the API's discovery answers once the server listens; default the base path. */
  readonly readyPath?: string;
  /** Options of the server's node process, e.g. `--cpu-prof` (which NODE_OPTIONS refuses). */
  readonly nodeOptions?: readonly string[];
}

export async function startServer(options: ServerStartOptions): Promise<ServerProcess> {
  const serveArgs = [
    ...(options.nodeOptions ?? []),
    options.cli.entry,
    'serve',
    '--store',
    options.store,
    '--port',
    String(options.port),
    '--workers',
    String(options.workers),
    ...(options.serveOptions ?? []),
  ];
  const [command, args] =
    options.cpus === undefined
      ? [process.execPath, serveArgs]
      : ['taskset', ['-c', options.cpus, process.execPath, ...serveArgs]];
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitForListening(child, `http://127.0.0.1:${options.port}/v7.3/api${options.readyPath ?? '/'}`);
  return {
    url: `http://127.0.0.1:${options.port}/v7.3/api`,
    pid: child.pid!,
    cpuSeconds: () => cpuSecondsOfTree(child.pid!),
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
