import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../load/support/convert-files.js';
import { countsOf, fillSourceStore, SOURCE_DOCUMENTS, storeContents } from './support/export-fixtures.js';
import { exportThenLoad, expectOnlyUntrimmedDefaultsFailed, type RoundTrip } from './support/round-trip.js';

describe('export, then load --direct into a new store', () => {
  const work = temporaryFolder();
  const source = `sqlite:${path.join(work, 'source.sqlite')}`;
  const copy = `sqlite:${path.join(work, 'copy.sqlite')}`;
  let roundTrip: RoundTrip;

  beforeAll(async () => {
    await fillSourceStore(source);
    roundTrip = await exportThenLoad(source, copy, work);
  }, 60_000);

  const exportedFile = (file: string): string => readFileSync(path.join(roundTrip.folder, file), 'utf8');

  it('writes one JSON lines file per non-empty resource, as load names them', () => {
    const files = readdirSync(roundTrip.folder);
    expect(files).toEqual(
      expect.arrayContaining([
        'ed-fi.students.jsonl',
        'ed-fi.schoolYearTypes.jsonl',
        'tpdm.accreditationStatusDescriptors.jsonl',
      ]),
    );
    expect(files).not.toContain('ed-fi.staffs.jsonl');
    expect(exportedFile('ed-fi.students.jsonl').split('\n')).toHaveLength(3);
  });

  it('writes bodies without server fields and without links', () => {
    for (const line of exportedFile('ed-fi.studentSchoolAssociations.jsonl').trimEnd().split('\n')) {
      const body = JSON.parse(line) as Record<string, Record<string, unknown>>;
      expect(body).not.toHaveProperty('id');
      expect(body).not.toHaveProperty('_etag');
      expect(body).not.toHaveProperty('_lastModifiedDate');
      expect(body.studentReference).toEqual({ studentUniqueId: expect.any(String) });
      expect(body.schoolReference).toEqual({ schoolId: 255901001 });
    }
  });

  it('prints a line per file and the total', () => {
    const { output, folder } = roundTrip;
    expect(output).toContain('  ed-fi.students.jsonl: 2 documents\n');
    expect(output).toContain('  ed-fi.localEducationAgencies.jsonl: 1 document\n');
    expect(output).toMatch(
      new RegExp(
        `^Exported [0-9,]+ documents of [0-9]+ resources from ${source} into ${folder} in \\d+s, ` +
          'read through one snapshot\\.$',
        'm',
      ),
    );
  });

  it('loads back every exported document', () => {
    const { reload, folder } = roundTrip;
    const exported = readdirSync(folder)
      .map((file) => exportedFile(file).split('\n').length - 1)
      .reduce((sum, lines) => sum + lines, 0);
    expect(reload.documents).toBe(exported);
    // The new store was seeded with the default descriptors and school years: those count as updated.
    expect(reload.created).toBeGreaterThanOrEqual(SOURCE_DOCUMENTS.length);
    expect(reload.created + reload.updated + reload.failed).toBe(exported);
  });

  it('fails only the default descriptors the API itself refuses, which the new store was seeded with', () => {
    expectOnlyUntrimmedDefaultsFailed(roundTrip);
  });

  it('gives the same counts per resource and the same bodies, links aside', async () => {
    const [original, copied] = await Promise.all([storeContents(source), storeContents(copy)]);
    expect(countsOf(copied)).toEqual(countsOf(original));
    expect(countsOf(original)).toMatchObject({
      'ed-fi/students': 2,
      'ed-fi/studentSchoolAssociations': 2,
      'tpdm/accreditationStatusDescriptors': expect.any(Number),
    });
    expect(copied).toEqual(original);
  });
});
