// GET changeQueries/v1/availableChangeVersions (contract §4.2): the window a sync can read up to. With Use-Snapshot it
// begins the session's snapshot afresh, so the version it reports is the moment the following reads see.
import { jsonResponse, type DataResponse } from './data-response.js';
import { readsFor, type SnapshotRequest, type SnapshotSource } from './snapshot.js';

/** The ODS never advances the oldest version (nothing is purged). */
const OLDEST_CHANGE_VERSION = 0;

export async function availableChangeVersions(store: SnapshotSource, request: SnapshotRequest): Promise<DataResponse> {
  const reads = await readsFor(store, request, { fresh: true });
  const newestChangeVersion = await reads.newestChangeVersion();
  return jsonResponse(200, JSON.stringify({ oldestChangeVersion: OLDEST_CHANGE_VERSION, newestChangeVersion }));
}
