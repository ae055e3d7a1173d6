import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../load/support/convert-files.js';
import { fillSourceStore, runExport } from './support/export-fixtures.js';

describe('the export command', () => {
  const work = temporaryFolder();
  const store = `sqlite:${path.join(work, 'source.sqlite')}`;

  beforeAll(() => fillSourceStore(store), 60_000);

  it('creates the folder, nested', async () => {
    const folder = path.join(work, 'new', 'nested');
    await runExport(folder, '--store', store, '--resources', 'students');
    expect(readdirSync(folder)).toEqual(['ed-fi.students.jsonl']);
  });

  it('refuses a folder that already holds JSON lines files, and writes nothing', async () => {
    const folder = temporaryFolder({ 'mine.jsonl': '{}\n', 'notes.txt': 'kept' });
    await expect(runExport(folder, '--store', store)).rejects.toThrow(
      `${folder} already holds JSON lines files (mine.jsonl); use --force to replace them`,
    );
    expect(readdirSync(folder).sort()).toEqual(['mine.jsonl', 'notes.txt']);
  });

  it('with --force replaces the files named after resources, so none of an earlier export lingers', async () => {
    const folder = temporaryFolder({ 'ed-fi.staffs.jsonl': '{}\n', 'mine.jsonl': '{}\n', 'notes.txt': 'kept' });
    const output = await runExport(folder, '--store', store, '--resources', 'schools,students', '--force');
    expect(readdirSync(folder).sort()).toEqual([
      'ed-fi.schools.jsonl',
      'ed-fi.students.jsonl',
      'mine.jsonl',
      'notes.txt',
    ]);
    expect(output).toContain('Exported 3 documents of 2 resources');
  });

  it('--resources takes endpoints with or without their namespace, and refuses unknown ones', async () => {
    const folder = path.join(work, 'selected');
    await runExport(folder, '--store', store, '--resources', 'tpdm.accreditationStatusDescriptors, STUDENTS');
    expect(readdirSync(folder).sort()).toEqual(['ed-fi.students.jsonl', 'tpdm.accreditationStatusDescriptors.jsonl']);
    await expect(
      runExport(path.join(work, 'unknown'), '--store', store, '--resources', 'students,pupils,tpdm.students'),
    ).rejects.toThrow('Unknown resources: pupils, tpdm.students');
  });

  it('refuses a store without a schema instead of creating one', async () => {
    const folder = path.join(work, 'from-empty');
    await expect(runExport(folder, '--store', 'sqlite::memory:')).rejects.toThrow(/no schema/);
    expect(existsSync(folder)).toBe(false);
  });
});
