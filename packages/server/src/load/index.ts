// Public surface of bulk loading: loadFiles, the targets it writes to, and the CLI commands.
export {
  loadFiles,
  DEFAULT_PARALLEL_REQUESTS,
  type LoadOptions,
  type LoadSummary,
  type UnreadableFile,
} from './load-files.js';
export type { ResourceCounts } from './report/load-tally.js';
export type { FailedRecord } from './report/failed-records.js';
export { summaryText } from './report/summary-text.js';
export type { LoadTarget, PostResult } from './target/load-target.js';
export { LoadAbortedError } from './target/load-target.js';
export { createHttpTarget, type HttpTargetOptions } from './target/http-target.js';
export { createDirectTarget, type DirectTargetOptions } from './target/direct-target.js';
export { openDirectStoreTarget, type DirectStoreTarget } from './target/direct-store.js';
export type { FetchLike, FetchRequest, FetchResponse } from './target/fetch-like.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './target/retry-policy.js';
export type { ProgressDisplay, ProgressMode, ProgressState } from './progress/progress-display.js';
export { jsonlFileNameOf, jsonlResourceOf } from './inputs/jsonl-resource.js';
export { registerLoadCommands } from './cli.js';
