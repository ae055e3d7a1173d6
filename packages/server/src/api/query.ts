// GET {resource} (contract §3.2): bind and check the query, list one page, answer with `Total-Count` and
// `Next-Page-Token` headers.
import type { ListQuery, QueryFilter } from '../store/store.js';
import type { DataRequest, DataServices, QueryParameters } from './data-request.js';
import { jsonResponse, type DataResponse } from './data-response.js';
import { encodePageToken, INT32_MAX } from './page-token.js';
import { bindPagingParameters, pageOf, type Page } from './paging.js';
import { QueryBindingErrors } from './query-binding.js';
import { bindQueryFilters } from './query-filters.js';
import { renderDocuments } from './representation.js';

/**
 * Until the store can list a range of document ids (cursor paging), page tokens count item positions: a token's range
 * [min, max] is a range of positions in list order, and the next token continues after the last item returned.
 */
function listQueryOf(page: Page, filters: readonly QueryFilter[]): ListQuery {
  if (page.cursor === undefined)
    return { filters, offset: page.offset, limit: page.limit, totalCount: page.totalCount };
  const offset = Math.max(page.cursor.min, 0);
  const limit = Math.max(Math.min(page.limit, page.cursor.max - offset + 1), 0);
  return { filters, offset, limit, totalCount: false };
}

function nextPageToken(page: Page, query: ListQuery, count: number): string {
  return encodePageToken({ min: query.offset + count, max: page.cursor?.max ?? INT32_MAX });
}

export async function queryDocuments(
  services: DataServices,
  request: DataRequest,
  parameters: QueryParameters,
): Promise<DataResponse> {
  const { resource } = request;
  const bindingErrors = new QueryBindingErrors();
  const paging = bindPagingParameters(parameters, bindingErrors);
  const filters = bindQueryFilters(resource, parameters, bindingErrors);
  bindingErrors.throwIfAny();
  const page = pageOf(paging);
  await services.authorize({ action: 'Read', resource, caller: request.caller });
  const query = listQueryOf(page, filters);
  const { items, totalCount } = await services.store.list(resource, query);
  const headers: Record<string, string> = {};
  if (totalCount !== undefined) headers['Total-Count'] = String(totalCount);
  if (items.length > 0) headers['Next-Page-Token'] = nextPageToken(page, query, items.length);
  return jsonResponse(200, renderDocuments(items), headers);
}
