// The round trip the export exists for: export a store, then `load --direct` the folder into another (new) store.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { loadFiles, openDirectStoreTarget, type FailedRecord, type LoadSummary } from '../../../src/load/index.js';
import { getModelRegistry } from '../../../src/model/index.js';
import { SAMPLE_DATA } from '../../load/support/shared-data.js';
import { runExport } from './export-fixtures.js';

export interface RoundTrip {
  /** What the export command printed. */
  readonly output: string;
  readonly folder: string;
  readonly reload: LoadSummary;
  readonly failures: readonly FailedRecord[];
}

/** Sets up the store at `spec` like a first `serve` if new, and loads the files into it with `load --direct`. */
export async function loadDirect(inputs: readonly string[], spec: string, failedFile?: string): Promise<LoadSummary> {
  const { target } = await openDirectStoreTarget(spec, getModelRegistry());
  try {
    return await loadFiles({ inputs, target, progress: 'none', ...(failedFile === undefined ? {} : { failedFile }) });
  } finally {
    await target.close();
  }
}

function failedRecords(file: string): FailedRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as FailedRecord);
}

/** Exports `source` into `work/export`, then loads that folder into `target`. */
export async function exportThenLoad(source: string, target: string, work: string): Promise<RoundTrip> {
  const folder = path.join(work, 'export');
  const failedFile = path.join(work, 'reload-failed.jsonl');
  const output = await runExport(folder, '--store', source);
  const reload = await loadDirect([folder], target, failedFile);
  return { output, folder, reload, failures: failedRecords(failedFile) };
}

/**
 * The failures a reload of a seeded store's export has: the default descriptor values with surrounding spaces, which
 * the API's validation refuses (as the ODS's does) although first start seeds them, so the new store has them already.
 */
export function expectOnlyUntrimmedDefaultsFailed(roundTrip: RoundTrip): void {
  const registry = getModelRegistry();
  const untrimmedDefaults = registry.descriptorResources.flatMap((resource) =>
    registry
      .descriptorValuesOf(resource.resourceName)
      .filter(({ codeValue }) => codeValue !== codeValue.trim())
      .map((value) => ({ resource: `/ed-fi/${resource.endpoint}`, document: value })),
  );
  const { failures, reload } = roundTrip;
  expect(failures.map(({ resource, document }) => ({ resource, document }))).toEqual(untrimmedDefaults);
  expect(reload.failed).toBe(untrimmedDefaults.length);
  for (const failure of failures) {
    expect(failure).toMatchObject({
      status: 400,
      error: { validationErrors: { '$.codeValue': ['CodeValue cannot contain leading or trailing spaces.'] } },
    });
  }
}

/** A part of the Grand Bend sample that loads in seconds: its own descriptors, ed-orgs, staff, students, schedules. */
export const SAMPLE_SUBSET = [
  'IndicatorDescriptor.xml',
  'IndicatorGroupDescriptor.xml',
  'IndicatorLevelDescriptor.xml',
  'EducationOrganization.xml',
  'EducationOrgCalendar.xml',
  'StaffAssociation.xml',
  'Student.xml',
  'Contact.xml',
  'MasterSchedule.xml',
].map((file) => path.join(SAMPLE_DATA, file));
