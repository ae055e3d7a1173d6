import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Checkpoint, loadFingerprint, UnitProgress } from '../../src/load/resume/checkpoint.js';
import { temporaryFolder } from './support/convert-files.js';

describe('unit progress', () => {
  it('counts as done exactly the gap-free prefix of completed documents, whatever the completion order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(40)), (completed) => {
        const progress = new UnitProgress(0);
        for (const sequence of completed) progress.complete(sequence);
        let prefix = 0;
        while (completed.includes(prefix)) prefix++;
        const sequences = Array.from({ length: 45 }, (_, sequence) => sequence);
        return (
          progress.done === prefix &&
          sequences.every((sequence) => progress.isDone(sequence) === completed.includes(sequence))
        );
      }),
    );
  });

  it('holds one stretch per gap, not one entry per document completed past it', () => {
    const progress = new UnitProgress(0);
    // Documents 0 and 5,000 wait (e.g. retried at the end of their group) while the other 99,998 complete.
    for (let sequence = 1; sequence < 100_000; sequence++) if (sequence !== 5_000) progress.complete(sequence);
    expect(progress.done).toBe(0);
    expect(progress.runsAhead).toBe(2);
    progress.complete(0);
    expect([progress.done, progress.runsAhead]).toEqual([5_000, 1]);
    progress.complete(5_000);
    expect([progress.done, progress.runsAhead]).toEqual([100_000, 0]);
  });
});

describe('the checkpoint file', () => {
  const files = [{ path: '/data/a.xml', kind: 'xml' as const, size: 10, modifiedMs: 1 }];

  it('saves unit progress, resumes it for the same load only, and is removed at the end', async () => {
    const file = path.join(temporaryFolder(), 'checkpoint.json');
    const fingerprint = loadFingerprint('http://api', files);
    const first = await Checkpoint.open(file, fingerprint, false);
    for (const sequence of [0, 1, 2, 4]) first.unit('3:/data/a.xml').complete(sequence);
    await Promise.all([first.save(), first.save()]);

    const resumed = await Checkpoint.open(file, fingerprint, true);
    expect(resumed.unit('3:/data/a.xml').done).toBe(3);
    expect(resumed.unit('4:/data/a.xml').done).toBe(0);

    const changed = loadFingerprint('http://api', [{ ...files[0]!, size: 11 }]);
    await expect(Checkpoint.open(file, changed, true)).rejects.toThrow(/another load/);
    await expect(Checkpoint.open(file, loadFingerprint('http://other', files), true)).rejects.toThrow(/another load/);

    await resumed.remove();
    expect(existsSync(file)).toBe(false);
  });

  it('resumes a load that stopped before its first checkpoint from the start, with a notice', async () => {
    const file = path.join(temporaryFolder(), 'never-written.json');
    const resumed = await Checkpoint.open(file, loadFingerprint('http://api', files), true);
    expect(resumed.unit('3:/data/a.xml').done).toBe(0);
    expect(resumed.notice).toBe(`--resume: no checkpoint at ${file}; loading from the start.`);
    expect((await Checkpoint.open(file, loadFingerprint('http://api', files), false)).notice).toBeUndefined();
  });

  it('refuses a checkpoint it cannot read', async () => {
    const file = path.join(temporaryFolder(), 'garbled.json');
    await writeFile(file, '{"version":');
    await expect(Checkpoint.open(file, loadFingerprint('http://api', files), true)).rejects.toThrow(
      /no readable checkpoint/,
    );
  });
});
