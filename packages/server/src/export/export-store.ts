// Exports a store's documents as JSON lines that `load` reads back: one `{namespace}.{endpoint}.jsonl` file per
// non-empty resource, bodies without server fields and links, every resource read through one snapshot if possible.
import type { ModelRegistry } from '../model/index.js';
import { prepareExportFolder } from './export-folder.js';
import { openExportReads, type ExportableStore } from './export-reads.js';
import { writeResourceFile, type ResourceFile } from './resource-file.js';
import { selectResources } from './resource-selection.js';

export interface ExportOptions {
  readonly store: ExportableStore;
  readonly registry: ModelRegistry;
  readonly folder: string;
  /** Endpoints (`students`) or `namespace.endpoint` names; all resources when absent. */
  readonly resources?: readonly string[];
  /** Replace the JSON lines files already in the folder instead of refusing. */
  readonly force?: boolean;
  /** Called as each non-empty resource's file is complete. */
  readonly onResourceFile?: (file: ResourceFile) => void;
}

export interface ExportSummary {
  readonly files: readonly ResourceFile[];
  readonly documents: number;
  readonly elapsedMs: number;
  /** Whether every resource was read through one snapshot. */
  readonly consistent: boolean;
}

export async function exportStore(options: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const resources = selectResources(options.registry, options.resources);
  await prepareExportFolder(options.folder, options.registry, options.force ?? false);
  const { reads, consistent } = await openExportReads(options.store);
  const files: ResourceFile[] = [];
  for (const resource of resources) {
    const file = await writeResourceFile(reads, resource, options.folder);
    if (file === undefined) continue;
    files.push(file);
    options.onResourceFile?.(file);
  }
  const documents = files.reduce((sum, file) => sum + file.documents, 0);
  return { files, documents, elapsedMs: performance.now() - started, consistent };
}
