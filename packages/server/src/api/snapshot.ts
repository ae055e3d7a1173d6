// The `Use-Snapshot` step (contract §4.7): GETs read the caller's snapshot session instead of the live data, and
// writes that ask for a snapshot are refused with 405.
import type { IncomingHttpHeaders } from 'node:http';
import { StoreError, type ChangeFeed, type SnapshotOptions, type SnapshotReads } from '../store/store.js';
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
  let snapshot: SnapshotReads | undefined;
  try {
    snapshot = await store.snapshot(request.caller.clientId ?? '', options);
  } catch (error) {
    if (error instanceof StoreError && error.kind === 'snapshot-expired') throw snapshotNotFound(error.message);
    throw error;
  }
  if (snapshot !== undefined) return snapshot;
  throw snapshotNotFound('The snapshot connection for the ODS has not been configured.');
}

/** The contract's one snapshot problem (§4.7), also for a snapshot released for its age or pinning. */
export function snapshotNotFound(reason: string): ApiProblem {
  return new ApiProblem('notFound', { detail: 'Snapshot not found.', errors: [reason] });
}

/** Before a write reads its body: snapshots are read-only. */
export function refuseSnapshotWrites(headers: IncomingHttpHeaders): void {
  if (asksForSnapshot(headers)) throw new ApiProblem('snapshotMethodNotAllowed', { headers: { Allow: 'GET' } });
}
