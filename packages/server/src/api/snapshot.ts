// The `Use-Snapshot` step (contract §4.7): GETs read the caller's snapshot session instead of the live data, and
// writes that ask for a snapshot are refused with 405.
import type { IncomingHttpHeaders } from 'node:http';
import type { ChangeFeed, SnapshotOptions, SnapshotReads } from '../store/store.js';
import type { Caller } from './caller.js';
import { ApiProblem } from './problems.js';

/** The live reads, and the snapshots a session may read instead. */
export type SnapshotSource = SnapshotReads & Pick<ChangeFeed, 'snapshot'>;

export interface SnapshotRequest {
  readonly caller: Caller;
  readonly headers: IncomingHttpHeaders;
}

/** Only `true` (in any casing) asks for the snapshot. */
function asksForSnapshot(headers: IncomingHttpHeaders): boolean {
  const value = headers['use-snapshot'];
  return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

/**
 * Where a GET reads: the live store, or the snapshot of the caller's session (one per API client, see
 * SnapshotReads); 404 when the store keeps no snapshots.
 */
export async function readsFor(
  store: SnapshotSource,
  request: SnapshotRequest,
  options?: SnapshotOptions,
): Promise<SnapshotReads> {
  if (!asksForSnapshot(request.headers)) return store;
  const snapshot = await store.snapshot(request.caller.clientId ?? '', options);
  if (snapshot !== undefined) return snapshot;
  throw new ApiProblem('notFound', {
    detail: 'Snapshot not found.',
    errors: ['The snapshot connection for the ODS has not been configured.'],
  });
}

/** Before a write reads its body: snapshots are read-only. */
export function refuseSnapshotWrites(headers: IncomingHttpHeaders): void {
  if (asksForSnapshot(headers)) throw new ApiProblem('snapshotMethodNotAllowed', { headers: { Allow: 'GET' } });
}
