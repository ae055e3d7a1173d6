// The HTTP target's default transport: node:http(s) with keep-alive connections, one per request in flight. Lighter
// than the global fetch per request, and each request has its own timeout instead of a listener on a shared signal.
import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
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

/** A URL as node:http takes it apart (`urlToHttpOptions`), done once per URL. */
interface RequestTarget {
  readonly secure: boolean;
  readonly host: string;
  readonly options: http.RequestOptions;
}

function requestTargetOf(url: URL): RequestTarget {
  return { secure: url.protocol === 'https:', host: url.host, options: urlToHttpOptions(url) };
}

export function createNodeHttpFetch(options: NodeHttpFetchOptions): NodeHttpFetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  // A load posts to a few dozen URLs: each is parsed once, not once per document.
  const targets = new Map<string, RequestTarget>();
  const targetOf = (url: string): RequestTarget => {
    let target = targets.get(url);
    if (!target) {
      target = requestTargetOf(new URL(url));
      targets.set(url, target);
    }
    return target;
  };

  const fetch: FetchLike = (url, request) =>
    new Promise((resolve, reject) => {
      const target = targetOf(url);
      const { body } = request;
      const headers =
        body === undefined ? request.headers : { ...request.headers, 'Content-Length': Buffer.byteLength(body) };
      const send = target.secure ? https.request : http.request;
      const outgoing = send(
        { ...target.options, method: request.method, headers, agent: target.secure ? agents.https : agents.http },
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
      // A string body goes out in one write with the headers; a Buffer would be a second chunk of a writev.
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
