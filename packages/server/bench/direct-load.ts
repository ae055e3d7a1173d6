// `edfi-api load --direct` of the Grand Bend sample district into a new store, timed as a command: a checkout's
// built CLI in a child process, after a first run over an empty folder has set the store up (schema, default
// descriptors), so the time is the load's own plus the CLI's start.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { edfiSourceDir } from '../tools/edfi-source.js';
import type { BuiltCli } from './checkouts.js';

const SUMMARY_START = 'Loaded ';

export const SAMPLE_DATA = join(edfiSourceDir(), 'sample-data');

export interface DirectLoadRun {
  readonly wallSeconds: number;
  /** The CLI's summary line: documents loaded and failed. */
  readonly summary: string;
}

const execute = promisify(execFile);

/** Runs the CLI; exit code 1 with a summary printed means some records failed (the sample has known gaps), not an error. */
async function run(args: readonly string[]): Promise<string> {
  try {
    return (await execute(process.execPath, args)).stdout;
  } catch (error) {
    const { code, stdout } = error as { code?: number; stdout?: string };
    if (code === 1 && stdout?.includes(SUMMARY_START)) return stdout;
    throw error;
  }
}

export async function timeDirectLoad(cli: BuiltCli, store: string): Promise<DirectLoadRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'edfi-bench-load-'));
  const load = (input: string) =>
    run([
      ...[cli.entry, 'load', input, '--direct', '--store', store, '--progress', 'none'],
      ...['--failed', join(scratch, 'failed.jsonl'), '--checkpoint', join(scratch, 'checkpoint.json')],
    ]);
  try {
    await load(scratch);
    const started = performance.now();
    const output = await load(SAMPLE_DATA);
    const wallSeconds = (performance.now() - started) / 1000;
    return { wallSeconds, summary: output.split('\n').find((line) => line.startsWith(SUMMARY_START)) ?? '' };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
