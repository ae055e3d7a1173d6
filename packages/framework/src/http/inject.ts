// Runs a request through the full pipeline without a socket, for tests and in-process benchmarks.

import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import { PayloadTooLarge } from '../errors.js';
import type { Dispatcher } from './dispatch.js';

export interface InjectRequest {
  readonly method?: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** A string or Buffer is sent as is; any other value is sent as JSON (with a JSON content type unless one is given). */
  readonly body?: unknown;
}

export interface InjectResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  json<T = unknown>(): T;
}

function lowerCaseHeaders(headers: InjectRequest['headers']): IncomingHttpHeaders {
  const result: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) result[name.toLowerCase()] = value;
  }
  return result;
}

function encodeBody(body: unknown, headers: IncomingHttpHeaders): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  headers['content-type'] ??= 'application/json';
  return Buffer.from(JSON.stringify(body));
}

export async function inject(dispatcher: Dispatcher, request: InjectRequest): Promise<InjectResponse> {
  const headers = lowerCaseHeaders(request.headers);
  const body = encodeBody(request.body, headers);
  if (body.length > 0) headers['content-length'] ??= String(body.length);
  const response = await dispatcher.dispatch({
    method: (request.method ?? 'GET').toUpperCase(),
    url: request.url,
    headers,
    readBody: (limit, _req, convert) =>
      body.length > limit ? Promise.reject(new PayloadTooLarge()) : new Promise((resolve) => resolve(convert(body))),
  });
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) responseHeaders[name.toLowerCase()] = String(value);
  const text = response.body === undefined ? '' : response.body.toString();
  return { status: response.status, headers: responseHeaders, body: text, json: <T>() => JSON.parse(text) as T };
}
