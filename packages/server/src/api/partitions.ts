// GET {resource}/partitions (contract §5.3): page tokens that split the filtered collection into at most `number`
// doc-id ranges of at least 5 pages each (unless small partitions are allowed); the last one is open-ended.
import type { DataServices, QueryParameters, ReadRequest } from './data-request.js';
import { jsonResponse, type DataResponse } from './data-response.js';
import { encodePageToken, INT32_MAX } from './page-token.js';
import { MAX_PAGE_SIZE } from './paging.js';
import { ApiProblem } from './problems.js';
import { bindBoolean, bindInt32, QueryBindingErrors } from './query-binding.js';
import { bindSelection } from './query-filters.js';
import { readsFor } from './snapshot.js';

const DEFAULT_PARTITIONS = 10;
const MAX_PARTITIONS = 200;
const MIN_PARTITION_PAGES = 5;

/** Partition i runs from its start to just before the next one; the last also covers documents inserted later. */
function pageTokensOf(starts: readonly number[]): string[] {
  return starts.map((min, index) => {
    const next = starts[index + 1];
    return encodePageToken({ min, max: next === undefined ? INT32_MAX : next - 1 });
  });
}

export async function partitionDocuments(
  services: DataServices,
  request: ReadRequest,
  parameters: QueryParameters,
): Promise<DataResponse> {
  const { resource } = request;
  const reads = await readsFor(services.store, request);
  const errors = new QueryBindingErrors();
  const count = errors.bind('number', parameters.get('number'), bindInt32) ?? DEFAULT_PARTITIONS;
  const allowSmall = errors.bind('allowSmallPartitions', parameters.get('allowsmallpartitions'), bindBoolean);
  const { filters, changeVersions } = bindSelection(resource, parameters, errors);
  errors.throwIfAny();
  if (count < 1 || count > MAX_PARTITIONS) {
    throw new ApiProblem('parameterValidationFailed', {
      errors: [`Number of partitions must be between 1 and ${MAX_PARTITIONS}.`],
    });
  }
  const { filter } = await services.authorize({ action: 'Read', resource, caller: request.caller });
  const minimumSize = allowSmall === true ? 1 : MIN_PARTITION_PAGES * MAX_PAGE_SIZE;
  const starts = await reads.partitionStarts(resource, {
    filters,
    changeVersions,
    count,
    minimumSize,
    ...(filter === undefined ? {} : { access: filter }),
  });
  return jsonResponse(200, JSON.stringify({ pageTokens: pageTokensOf(starts) }));
}
