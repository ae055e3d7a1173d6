// What an export reads through: one snapshot session of the store when it keeps snapshots, so every resource is read
// as of the same moment while the server keeps writing; otherwise the live store, one page at a time.
import { randomUUID } from 'node:crypto';
import type { ChangeFeed, DocumentStore } from '../store/store.js';
import type { PageReads } from './document-pages.js';

export type ExportableStore = Pick<DocumentStore, 'list'> & Pick<ChangeFeed, 'snapshot'>;

export interface ExportReads {
  readonly reads: PageReads;
  /** Whether every page comes from the same snapshot. */
  readonly consistent: boolean;
}

/**
 * The store offers no way to end a snapshot session, so the export's stays open until the store releases it as idle
 * or closes (the `export` command closes its store at once).
 */
export async function openExportReads(store: ExportableStore): Promise<ExportReads> {
  const session = `export-${randomUUID()}`;
  if ((await store.snapshot(session)) === undefined) return { reads: async () => store, consistent: false };
  // Asking for the session on every page marks it used, so it is not released as idle during a long export.
  const reads: PageReads = async () => {
    const snapshot = await store.snapshot(session);
    if (snapshot === undefined) throw new Error('The export snapshot was released before the export finished');
    return snapshot;
  };
  return { reads, consistent: true };
}
