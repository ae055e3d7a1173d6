import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { temporaryFolder } from '../load/support/convert-files.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { countsOf, runExport, storeContents } from './support/export-fixtures.js';
import {
  exportThenLoad,
  expectOnlyUntrimmedDefaultsFailed,
  loadDirect,
  SAMPLE_SUBSET,
  type RoundTrip,
} from './support/round-trip.js';

/** The folder's files, each as its sorted lines (the order of documents follows each store's own ids). */
function filesOf(folder: string): Record<string, string[]> {
  return Object.fromEntries(
    readdirSync(folder).map((file) => [file, readFileSync(path.join(folder, file), 'utf8').split('\n').sort()]),
  );
}

describePostgres('from SQLite to PostgreSQL: export, then load --direct into a new PostgreSQL schema', () => {
  const newSchema = schemasDroppedAfterAll();
  const work = temporaryFolder();
  const sqlite = `sqlite:${path.join(work, 'source.sqlite')}`;
  const postgres = postgresSpec(newSchema('edfi_export'));
  let roundTrip: RoundTrip;

  beforeAll(async () => {
    const initial = await loadDirect(SAMPLE_SUBSET, sqlite);
    expect(initial.created).toBeGreaterThan(3000);
    roundTrip = await exportThenLoad(sqlite, postgres, work);
  }, 120_000);

  it('loads back everything but the default descriptors the API refuses', () => {
    expectOnlyUntrimmedDefaultsFailed(roundTrip);
  });

  it('ends with the same documents per resource', async () => {
    const [original, copied] = await Promise.all([storeContents(sqlite), storeContents(postgres)]);
    expect(countsOf(copied)).toEqual(countsOf(original));
    expect(copied).toEqual(original);
  });

  it('exports the PostgreSQL store, through one snapshot, as the same files', async () => {
    const folder = path.join(work, 'from-postgres');
    const output = await runExport(folder, '--store', postgres);
    expect(output).toMatch(/, read through one snapshot\.$/m);
    expect(filesOf(folder)).toEqual(filesOf(roundTrip.folder));
  });
});
