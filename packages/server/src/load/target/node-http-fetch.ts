// The HTTP target's default transport: node:http(s) with keep-alive connections, one per request in flight. Lighter
// than the global fetch per request, and each request has its own timeout instead of a listener on a shared signal.
import http from 'node:http';
import https from 'node:https';
import type { FetchLike } from './fetch-like.js';

export interface NodeHttpFetch {
  readonly fetch: FetchLike;
  /** Closes the kept-alive connections. */
  close(): void;
}

export interface NodeHttpFetchOptions {
  /** Connections per host; the loader's parallelism. */
  readonly maxSockets: number;
  /** A request without an answer by then fails like a network error (and is retried). */
  readonly timeoutMs: number;
}

export function createNodeHttpFetch(options: NodeHttpFetchOptions): NodeHttpFetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  const fetch: FetchLike = (url, request) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      const headers = body === undefined ? request.headers : { ...request.headers, 'Content-Length': body.length };
      const send = secure ? https.request : http.request;
      const outgoing = send(
        target,
        { method: request.method, headers, agent: secure ? agents.https : agents.http },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: response.statusCode ?? 0,
              headers: { get: (name) => [response.headers[name.toLowerCase()] ?? []].flat().join(', ') || null },
              text: () => Promise.resolve(text),
            });
          });
        },
      );
      outgoing.setTimeout(options.timeoutMs, () =>
        outgoing.destroy(new Error(`no answer from ${target.host} within ${options.timeoutMs} ms`)),
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  return {
    fetch,
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
