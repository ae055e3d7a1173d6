// The export's report for people: a line per file as it is written, and the total.
import { formatDuration } from '../load/progress/format-duration.js';
import type { ExportSummary } from './export-store.js';
import type { ResourceFile } from './resource-file.js';

function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function resourceFileLine(file: ResourceFile): string {
  return `  ${file.file}: ${count(file.documents)} ${file.documents === 1 ? 'document' : 'documents'}`;
}

export function exportTotalLine(summary: ExportSummary, source: string, folder: string): string {
  const read = summary.consistent
    ? 'read through one snapshot'
    : 'read without a snapshot (the store keeps none), so writes made meanwhile may be partly included';
  return (
    `Exported ${count(summary.documents)} documents of ${count(summary.files.length)} resources from ${source} ` +
    `into ${folder} in ${formatDuration(summary.elapsedMs / 1000)}, ${read}.`
  );
}
