// Connects the dispatcher to node:http: one writeHead and one end per response, body read only on demand.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { readStream } from './body.js';
import type { Dispatcher } from './dispatch.js';
import type { ResponseLike } from './response.js';

function write(res: ServerResponse, response: ResponseLike): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

export function createNodeHandler(dispatcher: Dispatcher): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const result = dispatcher.dispatch({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      readBody: (limit) => readStream(req, req.headers, limit),
      req,
    });
    if (result instanceof Promise) {
      result.then(
        (response) => write(res, response),
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    } else {
      write(res, result);
    }
  };
}
