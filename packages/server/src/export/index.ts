// Public surface of exporting a store as JSON lines: exportStore and the CLI command.
export { exportStore, type ExportOptions, type ExportSummary } from './export-store.js';
export type { ExportableStore } from './export-reads.js';
export type { ResourceFile } from './resource-file.js';
export { ExportFolderNotEmptyError } from './export-folder.js';
export { UnknownResourceError } from './resource-selection.js';
export { registerExportCommand, type PrintLine } from './cli.js';
