// A fetch that routes requests into an in-process server (no sockets), so tests drive the HTTP target end to end.
import type { ApiServer } from '@edfi-api/framework';
import type { FetchLike } from '../../../src/load/index.js';

export function injectFetch(server: ApiServer): FetchLike {
  return async (url, request) => {
    const { pathname, search } = new URL(url);
    const response = await server.inject({
      method: request.method,
      url: pathname + search,
      headers: request.headers,
      body: request.body,
    });
    return {
      status: response.status,
      headers: { get: (name) => response.headers[name.toLowerCase()] ?? null },
      text: () => Promise.resolve(response.body),
    };
  };
}
