// The preconditions a write checks inside its transaction, against the item's stored etag (undefined: no such item):
// the state the caller authorized, then If-Match. Shared by every store so both answer alike.
import { StoreError, type WriteOptions } from '../store.js';

/** The `If-Match` header value compared as the contract says: surrounding quotes ignored. */
function normalizedIfMatch(ifMatch: string): string {
  return ifMatch.trim().replace(/^"(.*)"$/, '$1');
}

/** Raises `authorized-state-changed` when the item is not in the state the caller authorized. */
export function checkAuthorizedState(storedEtag: string | undefined, options: WriteOptions | undefined): void {
  const authorized = options?.authorizedEtag;
  if (authorized !== undefined && authorized !== (storedEtag ?? null))
    throw new StoreError('authorized-state-changed', 'The item changed after it was authorized.');
}

/** Raises `optimistic-lock-failed` when an If-Match does not name the stored etag. */
export function checkIfMatch(storedEtag: string, options: WriteOptions | undefined): void {
  if (options?.ifMatch !== undefined && normalizedIfMatch(options.ifMatch) !== storedEtag)
    throw new StoreError('optimistic-lock-failed', 'The item has been modified by another user.');
}
