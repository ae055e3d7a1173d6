import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { openStore } from '../../src/store/index.js';
import { describeEachStore } from '../support/each-store.js';
import { temporaryFolder } from './support/convert-files.js';
import { runLoadCommand } from './support/load-command.js';
import { itWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

const run = runLoadCommand;

async function storedCount(spec: string, endpoint: string): Promise<number | undefined> {
  const store = await openStore(spec);
  try {
    const resource = getModelRegistry().getResource('ed-fi', endpoint)!;
    return (await store.list(resource, { filters: [], offset: 0, limit: 0, totalCount: true })).totalCount;
  } finally {
    await store.close();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('the load commands', () => {
  itWithEdfiSource(
    'sample-data turns the Grand Bend folder into a ready sandbox store',
    async () => {
      const folder = temporaryFolder();
      const store = `sqlite:${path.join(folder, 'data', 'sandbox.sqlite')}`;
      const output = await run(
        'sample-data',
        SAMPLE_DATA,
        '--store',
        store,
        '--progress',
        'none',
        '--failed',
        path.join(folder, 'failed.jsonl'),
        '--checkpoint',
        path.join(folder, 'checkpoint.json'),
      );
      expect(output).toMatch(/^A new store was set up \(3298 descriptors, 60 school years\)\./);
      expect(output).toMatch(/Key: {4}\S+\n {2}Secret: \S+/);
      expect(output).toContain(`Loaded 17,289 of 17,449 documents into ${store}`);
      expect(output).toContain('17,287 created, 2 updated, 160 failed.');
      expect(process.exitCode ?? 0).toBe(0);
      expect(await storedCount(store, 'students')).toBe(960);
      expect(await storedCount(store, 'learningStandards')).toBe(5597);
    },
    120_000,
  );

  it('load over HTTP needs a URL and credentials', async () => {
    await expect(run('load', temporaryFolder(), '--progress', 'none')).rejects.toThrow(/--url, --key and --secret/);
  });
});

describeEachStore('the load commands', (stores) => {
  it('load --direct reads JSON lines into a store and exits 1 when records fail', async () => {
    const folder = temporaryFolder({
      'ed-fi.students.jsonl': [
        JSON.stringify({ studentUniqueId: 'S1', firstName: 'Ann', lastSurname: 'Lee', birthDate: '2010-01-02' }),
        JSON.stringify({ studentUniqueId: 'S2', firstName: 'Bo' }),
        'not json',
      ].join('\n'),
    });
    const store = await stores.newSpec({ shared: true });
    const failed = path.join(folder, 'failed.jsonl');
    const checkpoint = path.join(folder, 'checkpoint.json');
    const output = await run(
      ...['load', folder, '--direct', '--store', store, '--progress', 'none'],
      ...['--failed', failed, '--checkpoint', checkpoint],
    );
    expect(output).toContain('Loaded 1 of 3 documents');
    expect(output).toContain('1 created, 0 updated, 2 failed.');
    expect(output).toContain(`Failed records: ${failed}`);
    expect(process.exitCode).toBe(1);
    expect(await storedCount(store, 'students')).toBe(1);
  });

  it('load --resume without a checkpoint (the loader died before its first one) loads from the start', async () => {
    const folder = temporaryFolder({
      'ed-fi.students.jsonl': JSON.stringify({
        studentUniqueId: 'R1',
        firstName: 'Ann',
        lastSurname: 'Lee',
        birthDate: '2010-01-02',
      }),
    });
    const store = await stores.newSpec({ shared: true });
    const checkpoint = path.join(folder, 'never-written.json');
    const output = await run(
      ...['load', folder, '--direct', '--store', store, '--progress', 'none'],
      ...['--checkpoint', checkpoint, '--resume', '--failed', path.join(folder, 'failed.jsonl')],
    );
    expect(output).toContain(`--resume: no checkpoint at ${checkpoint}; loading from the start.`);
    expect(output).toContain('1 created, 0 updated, 0 failed.');
    expect(await storedCount(store, 'students')).toBe(1);
  });
});
