// Every document of a resource, a page at a time in document-id order, by cursor: each page starts after the last
// document id of the previous one, so no page re-reads what came before (unlike offset paging).
import type { ResourceModel } from '../model/index.js';
import type { DocumentStore, StoredDocument } from '../store/store.js';

export const EXPORT_PAGE_SIZE = 1000;

/** The reads of one page; asked again for every page so a snapshot session stays alive while it is used. */
export type PageReads = () => Promise<Pick<DocumentStore, 'list'>>;

export async function* documentPages(
  reads: PageReads,
  resource: ResourceModel,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<readonly StoredDocument[]> {
  let nextDocId = 0;
  for (;;) {
    const { items } = await (
      await reads()
    ).list(resource, {
      filters: [],
      offset: 0,
      limit: pageSize,
      totalCount: false,
      docIds: { min: nextDocId, max: Number.MAX_SAFE_INTEGER },
    });
    if (items.length === 0) return;
    yield items;
    if (items.length < pageSize) return;
    nextDocId = items[items.length - 1]!.docId + 1;
  }
}
