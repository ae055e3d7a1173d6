import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFiles, openDirectStoreTarget, type FailedRecord, type LoadSummary } from '../../src/load/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { temporaryFolder } from '../load/support/convert-files.js';
import { countsOf, fillSourceStore, runExport, SOURCE_DOCUMENTS, storeContents } from './support/export-fixtures.js';

async function loadDirect(folder: string, spec: string, failedFile: string): Promise<LoadSummary> {
  const { target } = await openDirectStoreTarget(spec, getModelRegistry());
  return loadFiles({ inputs: [folder], target, progress: 'none', failedFile }).finally(() => target.close());
}

function failedRecords(file: string): FailedRecord[] {
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  return lines.map((line) => JSON.parse(line) as FailedRecord);
}

describe('export, then load --direct into a new store', () => {
  const work = temporaryFolder();
  const source = `sqlite:${path.join(work, 'source.sqlite')}`;
  const copy = `sqlite:${path.join(work, 'copy.sqlite')}`;
  const folder = path.join(work, 'export');
  const failedFile = path.join(work, 'failed.jsonl');
  let output: string;
  let reload: LoadSummary;

  beforeAll(async () => {
    await fillSourceStore(source);
    output = await runExport(folder, '--store', source);
    reload = await loadDirect(folder, copy, failedFile);
  }, 60_000);

  it('writes one JSON lines file per non-empty resource, as load names them', () => {
    const files = readdirSync(folder).sort();
    expect(files).toEqual(
      expect.arrayContaining(['ed-fi.students.jsonl', 'tpdm.accreditationStatusDescriptors.jsonl']),
    );
    expect(files).toContain('ed-fi.schoolYearTypes.jsonl');
    expect(files).not.toContain('ed-fi.staffs.jsonl');
    expect(readFileSync(path.join(folder, 'ed-fi.students.jsonl'), 'utf8').split('\n')).toHaveLength(3);
  });

  it('writes bodies without server fields and without links', () => {
    const lines = readFileSync(path.join(folder, 'ed-fi.studentSchoolAssociations.jsonl'), 'utf8').trimEnd();
    for (const line of lines.split('\n')) {
      const body = JSON.parse(line) as Record<string, Record<string, unknown>>;
      expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['id']));
      expect(body).not.toHaveProperty('_etag');
      expect(body).not.toHaveProperty('_lastModifiedDate');
      expect(body.studentReference).toEqual({ studentUniqueId: expect.any(String) });
      expect(body.schoolReference).toEqual({ schoolId: 255901001 });
    }
  });

  it('prints a line per file and the total', () => {
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
    const exported = readdirSync(folder)
      .map((file) => readFileSync(path.join(folder, file), 'utf8').split('\n').length - 1)
      .reduce((sum, lines) => sum + lines, 0);
    expect(reload.documents).toBe(exported);
    // The new store was seeded with the default descriptors and school years: those count as updated.
    expect(reload.created).toBeGreaterThanOrEqual(SOURCE_DOCUMENTS.length);
    expect(reload.created + reload.updated + reload.failed).toBe(exported);
  });

  it('fails only the default descriptors the API itself refuses, which the new store was seeded with', () => {
    const registry = getModelRegistry();
    const untrimmedDefaults = registry.descriptorResources.flatMap((resource) =>
      registry
        .descriptorValuesOf(resource.resourceName)
        .filter(({ codeValue }) => codeValue !== codeValue.trim())
        .map((value) => ({ resource: `/ed-fi/${resource.endpoint}`, document: value })),
    );
    const failures = failedRecords(failedFile);
    expect(failures.map(({ resource, document }) => ({ resource, document }))).toEqual(untrimmedDefaults);
    expect(reload.failed).toBe(untrimmedDefaults.length);
    for (const failure of failures) {
      expect(failure).toMatchObject({
        status: 400,
        error: { validationErrors: { '$.codeValue': ['CodeValue cannot contain leading or trailing spaces.'] } },
      });
    }
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
