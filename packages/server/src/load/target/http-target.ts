// The HTTP target: POSTs documents to any Ed-Fi ODS/API 7.x compatible API ({base}/data/v3/{namespace}/{endpoint}),
// authenticated with a client-credentials token, retrying transient failures.
import type { ResourceModel } from '../../model/index.js';
import type { JsonObject } from '../../model/validation/index.js';
import type { FetchLike } from './fetch-like.js';
import { DEFAULT_PARALLEL_REQUESTS, LoadAbortedError, type LoadTarget, type PostResult } from './load-target.js';
import { createNodeHttpFetch, type NodeHttpFetch } from './node-http-fetch.js';
import { requestWithRetries } from './retrying-request.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { TokenSource } from './token-source.js';

export interface HttpTargetOptions {
  /** The API base, e.g. `http://localhost:8080/v7.3/api`: data under `/data/v3`, tokens at `/oauth/token`. */
  readonly url: string;
  readonly key: string;
  readonly secret: string;
  /** Defaults to keep-alive node:http(s) with `parallel` connections and `timeoutMs` per request. */
  readonly fetch?: FetchLike;
  readonly retry?: RetryPolicy;
  /** Connections kept open by the default transport; the load's parallelism (default 32). */
  readonly parallel?: number;
  /** Per request, for the default transport; default 120 s. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

export function createHttpTarget(options: HttpTargetOptions): LoadTarget {
  const base = options.url.replace(/\/+$/, '');
  const transport: NodeHttpFetch = options.fetch
    ? { fetch: options.fetch, close: () => undefined }
    : createNodeHttpFetch({
        maxSockets: options.parallel ?? DEFAULT_PARALLEL_REQUESTS,
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
  const { fetch } = transport;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const tokens = new TokenSource({
    tokenUrl: `${base}/oauth/token`,
    key: options.key,
    secret: options.secret,
    fetch,
    retry,
  });

  async function post(resource: ResourceModel, document: JsonObject, signal: AbortSignal): Promise<PostResult> {
    const url = `${base}/data/v3/${resource.namespace}/${resource.endpoint}`;
    const body = JSON.stringify(document);
    for (let renewed = false; ; renewed = true) {
      const token = await tokens.token(signal);
      const outcome = await requestWithRetries(
        () =>
          fetch(url, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body,
          }),
        retry,
        signal,
      );
      if ('networkError' in outcome) return { status: 0, body: outcome.networkError.message };
      const { status } = outcome.response;
      const text = await outcome.response.text();
      if (status !== 401) return { status, body: text };
      // A token the API refuses right after issuing it will not work for any document.
      if (renewed) throw new LoadAbortedError(`${url} refused a freshly issued token (401): ${text}`);
      tokens.invalidate(token);
    }
  }

  return {
    description: base,
    post,
    close: () => {
      transport.close();
      return Promise.resolve();
    },
  };
}
