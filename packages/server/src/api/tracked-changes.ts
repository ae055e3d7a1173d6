// GET {resource}/deletes and {resource}/keyChanges (contract §4.4, §4.5): the window and page of tracked changes,
// checked as the ODS checks them, answered as compact `application/json` (no charset).
import type { ResourceModel } from '../model/index.js';
import { tracksChanges, type SnapshotReads, type TrackedChangeList, type TrackedChangeQuery } from '../store/store.js';
import { bindChangeVersions } from './change-versions.js';
import type { DataServices, QueryParameters, ReadRequest } from './data-request.js';
import { jsonResponse, type DataResponse } from './data-response.js';
import { MAX_PAGE_SIZE } from './paging.js';
import { ApiProblem } from './problems.js';
import { bindBoolean, bindInt32, QueryBindingErrors } from './query-binding.js';
import { readsFor } from './snapshot.js';

const CHANGE_QUERY_CONTENT_TYPE = 'application/json';

function trackedChangeQueryOf(parameters: QueryParameters): TrackedChangeQuery {
  const errors = new QueryBindingErrors();
  const offset = errors.bind('offset', parameters.get('offset'), bindInt32);
  const limit = errors.bind('limit', parameters.get('limit'), bindInt32);
  const totalCount = errors.bind('totalCount', parameters.get('totalcount'), bindBoolean) ?? false;
  const changeVersions = bindChangeVersions(parameters, errors);
  errors.throwIfAny();
  const invalid: string[] = [];
  // The message says 1..500, but the ODS lets 0 through.
  if (limit !== undefined && (limit < 0 || limit > MAX_PAGE_SIZE))
    invalid.push(`Limit must be omitted or set to a value between 1 and ${MAX_PAGE_SIZE}.`);
  if (offset !== undefined && offset < 0) invalid.push('Offset must be greater than or equal to 0.');
  if (invalid.length > 0) {
    throw new ApiProblem('parameterValidationFailed', {
      detail: 'Parameters supplied to the request were invalid.',
      errors: invalid,
    });
  }
  return { changeVersions, offset: offset ?? 0, limit: limit ?? MAX_PAGE_SIZE, totalCount };
}

type TrackedChangeReader<T> = (
  reads: SnapshotReads,
  resource: ResourceModel,
  query: TrackedChangeQuery,
) => Promise<TrackedChangeList<T>>;

type TrackedChangeFeed = (
  services: DataServices,
  request: ReadRequest,
  parameters: QueryParameters,
) => Promise<DataResponse>;

/** A change-query operation: the checks every feed shares, the feed's read, and the shape of its entries. */
function trackedChangeFeed<T>(read: TrackedChangeReader<T>, entryOf: (item: T) => unknown): TrackedChangeFeed {
  return async (services, request, parameters) => {
    const { resource } = request;
    // The school-year enumeration has no change tracking, so no such route.
    if (!tracksChanges(resource)) throw new ApiProblem('notFound');
    const reads = await readsFor(services.store, request);
    const query = trackedChangeQueryOf(parameters);
    const { filter } = await services.authorize({ action: 'ReadChanges', resource, caller: request.caller });
    const { items, totalCount } = await read(
      reads,
      resource,
      filter === undefined ? query : { ...query, access: filter },
    );
    const headers: Record<string, string> = { 'Content-Type': CHANGE_QUERY_CONTENT_TYPE };
    if (totalCount !== undefined) headers['Total-Count'] = String(totalCount);
    return jsonResponse(200, JSON.stringify(items.map(entryOf)), headers);
  };
}

export const deletedDocuments = trackedChangeFeed(
  (reads, resource, query) => reads.deletes(resource, query),
  ({ id, changeVersion, keyValues }) => ({ id, changeVersion, keyValues }),
);

export const keyChanges = trackedChangeFeed(
  (reads, resource, query) => reads.keyChanges(resource, query),
  ({ id, changeVersion, oldKeyValues, newKeyValues }) => ({ id, changeVersion, oldKeyValues, newKeyValues }),
);
