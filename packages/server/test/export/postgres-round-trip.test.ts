import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { temporaryFolder } from '../load/support/convert-files.js';
import { describeWithEdfiSource } from '../support/edfi-source.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { runExport } from './support/export-fixtures.js';
import { describeSampleRoundTrip } from './support/round-trip.js';

/** The folder's files, each as its sorted lines (the order of documents follows each store's own ids). */
function filesOf(folder: string): Record<string, string[]> {
  return Object.fromEntries(
    readdirSync(folder).map((file) => [file, readFileSync(path.join(folder, file), 'utf8').split('\n').sort()]),
  );
}

describeWithEdfiSource('the Grand Bend sample', () => {
  describePostgres(
    'a part of the Grand Bend sample: SQLite, export, load --direct into a new PostgreSQL schema',
    () => {
      const postgres = postgresSpec(schemasDroppedAfterAll()('edfi_export'));
      const { roundTrip } = describeSampleRoundTrip(postgres);

      it('exports the PostgreSQL store, through one snapshot, as the same files', async () => {
        const folder = path.join(temporaryFolder(), 'from-postgres');
        const output = await runExport(folder, '--store', postgres);
        expect(output).toMatch(/, read through one snapshot\.$/m);
        expect(filesOf(folder)).toEqual(filesOf(roundTrip().folder));
      });
    },
  );
});
