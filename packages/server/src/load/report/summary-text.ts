// The end-of-load report for people: totals, a per-resource table (created, updated, failed) and where failures went.
import type { LoadSummary } from '../load-files.js';
import { formatDuration } from '../progress/format-duration.js';

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function resourceTable(summary: LoadSummary): string[] {
  const rows = Object.entries(summary.resources);
  if (rows.length === 0) return [];
  const width = Math.max('resource'.length, ...rows.map(([path]) => path.length));
  const cell = (value: string): string => value.padStart(9);
  const line = (name: string, values: string[]): string => `  ${name.padEnd(width)}${values.map(cell).join('')}`;
  return [
    line('resource', ['created', 'updated', 'failed']),
    ...rows.map(([path, counts]) => line(path, [counts.created, counts.updated, counts.failed].map(count))),
  ];
}

export function summaryText(summary: LoadSummary, failedFile: string | undefined): string {
  const seconds = summary.elapsedMs / 1000;
  const verb = summary.aborted ? 'Stopped after loading' : 'Loaded';
  const lines = [
    ...summary.notices,
    `${verb} ${count(summary.created + summary.updated)} of ${count(summary.documents)} documents into ` +
      `${summary.target} in ${formatDuration(seconds)} (${count(Math.round(summary.documentsPerSecond))} docs/s): ` +
      `${count(summary.created)} created, ${count(summary.updated)} updated, ${count(summary.failed)} failed` +
      (summary.skipped > 0 ? `, ${count(summary.skipped)} already done before resuming.` : '.'),
    ...resourceTable(summary),
  ];
  const elements = (counts: Readonly<Record<string, number>>): string =>
    Object.entries(counts)
      .map(([name, n]) => `${name} (${count(n)})`)
      .join(', ');
  if (Object.keys(summary.notDocuments).length > 0) {
    lines.push(`Interchange elements that are not documents, skipped: ${elements(summary.notDocuments)}.`);
  }
  if (Object.keys(summary.unknownElements).length > 0) {
    lines.push(`Elements the interchange schemas do not have, not loaded: ${elements(summary.unknownElements)}.`);
  }
  for (const { file, error } of summary.unreadableFiles) lines.push(`Unreadable: ${file}: ${error}`);
  if (failedFile !== undefined && (summary.failed > 0 || summary.unreadableFiles.length > 0)) {
    lines.push(`Failed records: ${failedFile}`);
  }
  if (summary.aborted) lines.push('Run the same command with --resume to continue.');
  return lines.join('\n');
}
