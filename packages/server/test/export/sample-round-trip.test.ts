import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../load/support/convert-files.js';
import { countsOf, storeContents } from './support/export-fixtures.js';
import {
  exportThenLoad,
  expectOnlyUntrimmedDefaultsFailed,
  loadDirect,
  SAMPLE_SUBSET,
  type RoundTrip,
} from './support/round-trip.js';

describe('a part of the Grand Bend sample: SQLite, export, load --direct into a new SQLite store', () => {
  const work = temporaryFolder();
  const source = `sqlite:${path.join(work, 'source.sqlite')}`;
  const copy = `sqlite:${path.join(work, 'copy.sqlite')}`;
  let roundTrip: RoundTrip;

  beforeAll(async () => {
    const initial = await loadDirect(SAMPLE_SUBSET, source);
    expect(initial.created).toBeGreaterThan(3000);
    roundTrip = await exportThenLoad(source, copy, work);
  }, 120_000);

  it('loads back everything but the default descriptors the API refuses', () => {
    expectOnlyUntrimmedDefaultsFailed(roundTrip);
  });

  it('ends with the same documents per resource', async () => {
    const [original, copied] = await Promise.all([storeContents(source), storeContents(copy)]);
    expect(countsOf(copied)).toEqual(countsOf(original));
    // More than one export page (1,000 documents): the cursor carries on where the previous page ended.
    expect(countsOf(original)['ed-fi/contacts']).toBeGreaterThan(1000);
    expect(copied).toEqual(original);
  });
});
