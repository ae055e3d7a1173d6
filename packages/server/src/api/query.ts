// GET {resource} (contract §3.2, §4.3, §5.2): bind and check the query, list one page (by offset, or within a page
// token's doc-id range), answer with `Total-Count` and `Next-Page-Token` headers.
import type { ListQuery } from '../store/store.js';
import type { DataServices, QueryParameters, ReadRequest } from './data-request.js';
import { jsonResponse, type DataResponse } from './data-response.js';
import { encodePageToken, INT32_MAX } from './page-token.js';
import { bindPagingParameters, pageOf } from './paging.js';
import { QueryBindingErrors } from './query-binding.js';
import { bindSelection } from './query-filters.js';
import { renderDocuments } from './representation.js';
import { readsFor } from './snapshot.js';

export async function queryDocuments(
  services: DataServices,
  request: ReadRequest,
  parameters: QueryParameters,
): Promise<DataResponse> {
  const { resource } = request;
  const reads = await readsFor(services.store, request);
  const bindingErrors = new QueryBindingErrors();
  const paging = bindPagingParameters(parameters, bindingErrors);
  const { filters, changeVersions } = bindSelection(resource, parameters, bindingErrors);
  bindingErrors.throwIfAny();
  const page = pageOf(paging);
  const { filter } = await services.authorize({ action: 'Read', resource, caller: request.caller });
  const query: ListQuery = {
    filters,
    offset: page.offset,
    limit: page.limit,
    totalCount: page.totalCount,
    changeVersions,
    docIds: page.cursor,
    ...(filter === undefined ? {} : { access: filter }),
  };
  const { items, totalCount } = await reads.list(resource, query);
  const headers: Record<string, string> = {};
  if (totalCount !== undefined) headers['Total-Count'] = String(totalCount);
  const last = items[items.length - 1];
  // "The rest": after the last item returned, to the end of the token's range (or of the collection).
  if (last !== undefined)
    headers['Next-Page-Token'] = encodePageToken({ min: last.docId + 1, max: page.cursor?.max ?? INT32_MAX });
  return jsonResponse(200, renderDocuments(items), headers);
}
