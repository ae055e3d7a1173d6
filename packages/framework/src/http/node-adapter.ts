// Connects the dispatcher to node:http: one writeHead and one end per response, body read only on demand.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { readStream } from './body.js';
import type { Dispatcher } from './dispatch.js';
import type { BodySource } from './request-context.js';
import type { ResponseLike } from './response.js';

/** What `onResponse` learns of each response once it has been handed to the socket. */
export interface ResponseEvent {
  readonly method: string;
  /** The request target as received, query string included. */
  readonly url: string;
  /** The status written, or 499 when the client had gone before its response could be delivered. */
  readonly status: number;
  /** From the request's arrival at the handler to the end of the response. */
  readonly durationMs: number;
}

export type ResponseObserver = (event: ResponseEvent) => void;

/** Status 499 (nginx's convention): the client closed the connection before it got its response. */
export const CLIENT_CLOSED_REQUEST = 499;

/** Writes the response, or a bare 500 when the dispatcher failed without one. */
function write(res: ServerResponse, response: ResponseLike | undefined): void {
  if (response === undefined) {
    res.writeHead(500);
    res.end();
    return;
  }
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** The socket's body reader: one function for every request, handed the request it reads. */
const readSocketBody: BodySource = (limit, req, convert) => readStream(req!, req!.headers, limit, convert);

export function createNodeHandler(
  dispatcher: Dispatcher,
  onResponse?: ResponseObserver,
): (req: IncomingMessage, res: ServerResponse) => void {
  // Observed once the response is ended, rather than through a 'finish' listener per response: one call per request.
  const finish = (req: IncomingMessage, res: ServerResponse, response: ResponseLike | undefined, started: number) => {
    // Nobody receives a response on a closed connection: none is written, and the observer learns 499.
    const clientGone = res.destroyed || req.socket?.destroyed === true;
    if (!clientGone) write(res, response);
    onResponse?.({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      status: clientGone ? CLIENT_CLOSED_REQUEST : res.statusCode,
      durationMs: performance.now() - started,
    });
  };
  return (req, res) => {
    const started = onResponse === undefined ? 0 : performance.now();
    const result = dispatcher.dispatch({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      readBody: readSocketBody,
      req,
    });
    // Closures only for the responses that wait on something.
    if (!(result instanceof Promise)) finish(req, res, result, started);
    else
      result.then(
        (response) => finish(req, res, response, started),
        () => finish(req, res, undefined, started),
      );
  };
}
