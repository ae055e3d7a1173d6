// Paging parameters of GET lists (contract §3.2, §5.2): binding, then the ODS checks in their evaluation order.
import type { QueryParameters } from './data-request.js';
import { decodePageToken, type PageRange } from './page-token.js';
import { ApiProblem } from './problems.js';
import { bindBoolean, bindInt32, bindString, type QueryBindingErrors } from './query-binding.js';

export const MAX_PAGE_SIZE = 500;

/** Query names the paging step consumes (lower-case); they are never filters. */
export const PAGING_PARAMETER_NAMES: ReadonlySet<string> = new Set([
  'offset',
  'limit',
  'pagesize',
  'pagetoken',
  'totalcount',
]);

interface PagingParameters {
  readonly offset: number | undefined;
  readonly limit: number | undefined;
  readonly pageSize: number | undefined;
  readonly pageToken: string | undefined;
  readonly totalCount: boolean;
}

export interface Page {
  readonly offset: number;
  readonly limit: number;
  readonly totalCount: boolean;
  /** The range of a page token the client sent (cursor paging). */
  readonly cursor: PageRange | undefined;
}

export function bindPagingParameters(query: QueryParameters, errors: QueryBindingErrors): PagingParameters {
  return {
    offset: errors.bind('offset', query.get('offset'), bindInt32),
    limit: errors.bind('limit', query.get('limit'), bindInt32),
    pageSize: errors.bind('pageSize', query.get('pagesize'), bindInt32),
    pageToken: errors.bind('pageToken', query.get('pagetoken'), bindString),
    totalCount: errors.bind('totalCount', query.get('totalcount'), bindBoolean) ?? false,
  };
}

function invalid(message: string): ApiProblem {
  return new ApiProblem('parameterValidationFailed', { errors: [message] });
}

function isOutsidePageSizeRange(value: number | undefined): boolean {
  return value !== undefined && (value < 0 || value > MAX_PAGE_SIZE);
}

/** The ODS `QueryParametersValidator`: the first failing rule answers 400. */
export function pageOf(parameters: PagingParameters): Page {
  const { offset, limit, pageSize, pageToken, totalCount } = parameters;
  const isCursor = pageToken !== undefined;
  if (isCursor && offset !== undefined) {
    throw invalid(
      'Both offset and pageToken parameters were provided, but they support alternative paging approaches and cannot be used together.',
    );
  }
  if (!isCursor && pageSize !== undefined && limit === undefined) {
    throw invalid(
      offset === undefined
        ? 'PageToken is required when pageSize is specified.'
        : 'Use limit instead of pageSize when using limit/offset paging.',
    );
  }
  if (offset !== undefined && offset < 0) throw invalid('Offset cannot be a negative value.');
  if (isOutsidePageSizeRange(limit)) throw invalid(`Limit must be a value between 0 and ${MAX_PAGE_SIZE}.`);
  if (!isCursor) return { offset: offset ?? 0, limit: limit ?? MAX_PAGE_SIZE, totalCount, cursor: undefined };

  if (limit !== undefined && pageSize === undefined) {
    throw invalid('Use pageSize instead of limit when using cursor paging with pageToken.');
  }
  if (isOutsidePageSizeRange(pageSize)) throw invalid(`PageSize must be a value between 0 and ${MAX_PAGE_SIZE}.`);
  const cursor = decodePageToken(pageToken);
  if (cursor === undefined) throw invalid('The page token provided was invalid.');
  if (totalCount) {
    throw invalid('Total count cannot be determined while using cursor paging (when pageToken is specified).');
  }
  return { offset: 0, limit: pageSize ?? MAX_PAGE_SIZE, totalCount: false, cursor };
}
