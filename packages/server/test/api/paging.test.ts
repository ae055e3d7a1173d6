// The paging checks of GET lists in the ODS's evaluation order (contract §3.2).
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../src/api/index.js';
import { encodePageToken } from '../../src/api/page-token.js';
import { bindPagingParameters, pageOf } from '../../src/api/paging.js';
import { QueryBindingErrors } from '../../src/api/query-binding.js';

const token = encodePageToken({ min: 0, max: 99 });

function pageFor(query: Record<string, string>) {
  const errors = new QueryBindingErrors();
  const parameters = bindPagingParameters(new Map(Object.entries(query)), errors);
  errors.throwIfAny();
  return pageOf(parameters);
}

function firstError(query: Record<string, string>): string | undefined {
  try {
    pageFor(query);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    expect(error.problem.type).toBe('urn:ed-fi:api:bad-request:parameter-validation-failed');
    return error.errors?.[0];
  }
}

describe('paging parameters', () => {
  it('default to offset 0 and limit 500', () => {
    expect(pageFor({})).toEqual({ offset: 0, limit: 500, totalCount: false, cursor: undefined });
    expect(pageFor({ offset: '5', limit: '0', totalcount: 'TRUE' })).toEqual({
      offset: 5,
      limit: 0,
      totalCount: true,
      cursor: undefined,
    });
  });

  it('take a page token with its page size', () => {
    expect(pageFor({ pagetoken: token, pagesize: '20' })).toEqual({
      offset: 0,
      limit: 20,
      totalCount: false,
      cursor: { min: 0, max: 99 },
    });
  });

  it.each([
    [
      { offset: '-1', pagetoken: 'x', limit: '9999' },
      'Both offset and pageToken parameters were provided, but they support alternative paging approaches and cannot be used together.',
    ],
    [{ pagesize: '10', offset: '-1' }, 'Use limit instead of pageSize when using limit/offset paging.'],
    [{ pagesize: '10' }, 'PageToken is required when pageSize is specified.'],
    [{ offset: '-1', limit: '9999' }, 'Offset cannot be a negative value.'],
    [{ limit: '501' }, 'Limit must be a value between 0 and 500.'],
    [{ limit: '-1' }, 'Limit must be a value between 0 and 500.'],
    [{ pagetoken: 'x', limit: '10' }, 'Use pageSize instead of limit when using cursor paging with pageToken.'],
    [{ pagetoken: 'x', pagesize: '501' }, 'PageSize must be a value between 0 and 500.'],
    [{ pagetoken: 'x', totalcount: 'true' }, 'The page token provided was invalid.'],
    [
      { pagetoken: token, totalcount: 'true' },
      'Total count cannot be determined while using cursor paging (when pageToken is specified).',
    ],
  ])('%j → %s', (query, message) => {
    expect(firstError(query)).toBe(message);
  });

  it('report values that do not bind under their JSON paths, all at once', () => {
    try {
      pageFor({ offset: 'abc', limit: '1.5', totalcount: '1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiProblem);
      const problem = error as ApiProblem;
      expect(problem.problem.type).toBe('urn:ed-fi:api:bad-request:data-validation-failed');
      expect(problem.validationErrors).toEqual({
        '$.offset': ["The value 'abc' is not valid for Offset."],
        '$.limit': ["The value '1.5' is not valid for Limit."],
        '$.totalCount': ["The value '1' is not valid for TotalCount."],
      });
    }
  });
});
