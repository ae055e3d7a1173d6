// Runs the `edfi-api` command line from source (tsx loader, no build) in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const CLI_ARGS = ['--import', 'tsx', 'src/cli/main.ts'];

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function start(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [...CLI_ARGS, ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = start(args, env);
  const output = collect(child);
  const code = await exitOf(child);
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

function waitFor(child: ChildProcess, done: () => boolean, value: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!done()) return;
      clearTimeout(timer);
      child.stderr!.off('data', check);
      resolve(value());
    };
    const timer = setTimeout(() => {
      child.stderr!.off('data', check);
      reject(new Error(`Timed out waiting for output:\n${value()}`));
    }, 10_000);
    child.stderr!.on('data', check);
    check();
  });
}

export interface LogEntry {
  readonly msg: string;
  readonly [field: string]: unknown;
}

export interface RunningServer {
  readonly port: number;
  readonly listening: LogEntry;
  stdout(): string;
  stderr(): string;
  logEntries(): LogEntry[];
  /** Resolves once stderr contains `text` (the banner follows the `listening` line on another pipe). */
  waitForStderr(text: string): Promise<string>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

function logEntries(stdout: string): LogEntry[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogEntry);
}

/** Starts `serve` and resolves once a process logs `listening` (rejects if it exits or takes over 30 s). */
export function startServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const child = start(['serve', ...args], env);
  const output = collect(child);
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      reject(new Error(`${message}:\n${output.stdout()}\n${output.stderr()}`));
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail('serve did not start in time');
    }, 30_000);
    child.once('exit', (code) => fail(`serve exited with ${code}`));
    child.stdout!.on('data', () => {
      const listening = logEntries(output.stdout()).find((entry) => entry.msg === 'listening');
      if (settled || listening === undefined) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        port: listening.port as number,
        listening,
        stdout: output.stdout,
        stderr: output.stderr,
        logEntries: () => logEntries(output.stdout()),
        waitForStderr: (text) => waitFor(child, () => output.stderr().includes(text), output.stderr),
        stop: () => {
          child.kill('SIGTERM');
          return exitOf(child);
        },
      });
    });
  });
}
