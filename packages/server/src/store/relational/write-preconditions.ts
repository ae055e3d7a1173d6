// The preconditions a write checks inside its transaction against the stored row of the item (undefined: no such
// item): that it is still the item the caller authorized, then If-Match. Shared by every store so both answer alike.
import { StoreError, type WriteOptions } from '../store.js';
import { etagOf, type StoredRow } from './stored-documents.js';
import type { TableLayout } from './table-layout.js';

/** What the preconditions read of a stored row. */
type StoredIdentity = Pick<StoredRow, 'uuid' | 'identity_key' | 'change_version'>;

/** The `If-Match` header value compared as the contract says: surrounding quotes ignored. */
function normalizedIfMatch(ifMatch: string): string {
  return ifMatch.trim().replace(/^"(.*)"$/, '$1');
}

function isAuthorizedTarget(row: StoredIdentity | undefined, layout: TableLayout, options: WriteOptions): boolean {
  const target = options.authorizedTarget;
  if (target === undefined) return true;
  if (target === null || row === undefined) return target === null && row === undefined;
  return (
    row.uuid === target.id &&
    row.identity_key === layout.identityKeyOf(target.key) &&
    (target.etag === undefined || etagOf(row.change_version) === target.etag)
  );
}

/** Raises `authorized-state-changed` when the stored item is not the one the caller authorized. */
export function checkAuthorizedTarget(
  row: StoredIdentity | undefined,
  layout: TableLayout,
  options: WriteOptions | undefined,
): void {
  if (options !== undefined && !isAuthorizedTarget(row, layout, options))
    throw new StoreError('authorized-state-changed', 'The item changed after it was authorized.');
}

/** Raises `optimistic-lock-failed` when an If-Match does not name the stored etag. */
export function checkIfMatch(storedEtag: string, options: WriteOptions | undefined): void {
  if (options?.ifMatch !== undefined && normalizedIfMatch(options.ifMatch) !== storedEtag)
    throw new StoreError('optimistic-lock-failed', 'The item has been modified by another user.');
}
