// Defect 1 of issue 14: every distinct combination of filter names used to leave prepared statements behind for the
// life of the process. A child process asks one store for many shapes of list and reports how far its resident memory
// grew after warm-up; the per-shape caches are bounded, so the growth must stay under the stated bound.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';

/** Growth of resident memory allowed after the first 2,000 shapes (the caches hold 512 shapes per store). */
const RSS_GROWTH_BOUND_MIB = 64;

interface ShapesResult {
  readonly shapes: number;
  readonly peakGrowthMiB: number;
}

async function askShapes(spec: string, shapes: number): Promise<{ result: ShapesResult; exitCode: number | null }> {
  const script = fileURLToPath(new URL('list-shapes-process.ts', import.meta.url));
  const args = ['--import', 'tsx', script, spec, String(shapes), String(RSS_GROWTH_BOUND_MIB)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { result: JSON.parse(output) as ShapesResult, exitCode };
}

describe('list statements per shape of filters (SQLite)', () => {
  it('keeps memory bounded over 100,000 distinct filter combinations', { timeout: 60_000 }, async () => {
    const { result, exitCode } = await askShapes('sqlite::memory:', 100_000);
    expect(result.peakGrowthMiB).toBeLessThan(RSS_GROWTH_BOUND_MIB);
    expect(result.shapes).toBe(100_000);
    expect(exitCode).toBe(0);
  });
});

describePostgres('list statements per shape of filters (PostgreSQL)', () => {
  const newSchema = schemasDroppedAfterAll();

  // Fewer shapes than on SQLite (each is a round trip), still ten times what the caches and connections keep.
  it('keeps memory bounded over 5,000 distinct filter combinations', { timeout: 60_000 }, async () => {
    const { result, exitCode } = await askShapes(postgresSpec(newSchema()), 5_000);
    expect(result.peakGrowthMiB).toBeLessThan(RSS_GROWTH_BOUND_MIB);
    expect(result.shapes).toBe(5_000);
    expect(exitCode).toBe(0);
  });
});
