// The preconditions a write checks inside its transaction against the stored row of the item (undefined: no such
// item): that it is still the item the caller authorized, then If-Match. Shared by every store so both answer alike.
import { StoreError, type WriteOptions } from '../store.js';
import type { StoredRow } from './stored-documents.js';
import { securablePathsOf, type TableLayout, type TypedColumn } from './table-layout.js';

/** What the preconditions read of a stored row. */
type StoredIdentity = Pick<StoredRow, 'uuid' | 'identity_key' | 'body'>;

const unkeyedSecurables = new WeakMap<TableLayout, readonly TypedColumn[]>();

/** The columns of securable values outside the natural key (a resource's own, non-identifying namespace). */
function unkeyedSecurableColumns(layout: TableLayout): readonly TypedColumn[] {
  let columns = unkeyedSecurables.get(layout);
  if (columns === undefined) {
    const securable = securablePathsOf(layout.resource);
    const key = new Set(layout.resource.identityPaths);
    columns = layout.columns.filter((column) => securable.has(column.path) && !key.has(column.path));
    unkeyedSecurables.set(layout, columns);
  }
  return columns;
}

/** Whether the stored body still has the securable values outside the key that the authorized body had. */
function sameUnkeyedSecurables(storedBody: string, authorizedBody: unknown, layout: TableLayout): boolean {
  const columns = unkeyedSecurableColumns(layout);
  if (columns.length === 0) return true;
  const stored: unknown = JSON.parse(storedBody);
  return columns.every((column) => column.read(stored) === column.read(authorizedBody));
}

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
    sameUnkeyedSecurables(row.body, target.key.body, layout)
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
