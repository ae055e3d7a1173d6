// The folder an export writes into: created when missing; JSON lines files already there would mix with the export
// (a later `load` of the folder reads them all), so they make the export refuse, or with `force` the ones named after
// a resource are removed first.
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { jsonlResourceOf } from '../load/index.js';
import type { ModelRegistry } from '../model/index.js';

export class ExportFolderNotEmptyError extends Error {
  constructor(
    readonly folder: string,
    readonly files: readonly string[],
  ) {
    const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? `, … (${files.length} in all)` : '');
    super(`${folder} already holds JSON lines files (${shown}); use --force to replace them`);
    this.name = 'ExportFolderNotEmptyError';
  }
}

export async function prepareExportFolder(folder: string, registry: ModelRegistry, force: boolean): Promise<void> {
  await mkdir(folder, { recursive: true });
  const entries = await readdir(folder, { withFileTypes: true });
  const existing = entries
    .filter((entry) => entry.isFile() && path.extname(entry.name).toLowerCase() === '.jsonl')
    .map((entry) => entry.name)
    .sort();
  if (existing.length === 0) return;
  if (!force) throw new ExportFolderNotEmptyError(folder, existing);
  const replaced = existing.filter((file) => jsonlResourceOf(file, registry) !== undefined);
  await Promise.all(replaced.map((file) => rm(path.join(folder, file))));
}
