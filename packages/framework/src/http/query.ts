// Lazy query-string parsing into a null-prototype record (last value wins) with getAll for repeated names.

import type { QueryParams } from '../types.js';

const queryPrototype = Object.create(null, {
  getAll: {
    value(this: { [rawQuery]: string }, name: string): string[] {
      return new URLSearchParams(this[rawQuery]).getAll(name);
    },
    enumerable: false,
  },
}) as object;

const rawQuery = Symbol('rawQuery');

export function parseQuery(search: string): QueryParams {
  const query = Object.create(queryPrototype) as Record<string | symbol, unknown>;
  Object.defineProperty(query, rawQuery, { value: search, enumerable: false });
  if (search.length > 0) {
    for (const [name, value] of new URLSearchParams(search)) query[name] = value;
  }
  return query as unknown as QueryParams;
}

export const emptyQuery: QueryParams = parseQuery('');
