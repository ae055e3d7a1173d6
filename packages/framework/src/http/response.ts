// Turns handler results and errors into the one response shape the adapters write (status, headers, body).

// Imported, not the global: Node's global Buffer is a getter, run on every use.
import { Buffer } from 'node:buffer';
import { HttpError, NOT_FOUND_CODE } from '../errors.js';
import { ApiResponse, RawResponse } from './api-response.js';
import { Payload } from './payload.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type ResponseHeaders = Record<string, string | number>;

export interface ResponseLike {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The serialised body; undefined for responses without a body (204, 304, HEAD). */
  readonly body: string | Buffer | undefined;
}

export interface ErrorLogger {
  error(message: string, data?: unknown): void;
}

function hasNoBody(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

function build(
  status: number,
  payload: unknown,
  extraHeaders: Readonly<Record<string, string>> | undefined,
  headOnly: boolean,
): ResponseLike {
  if (hasNoBody(status)) {
    return { status, headers: extraHeaders === undefined ? {} : { ...extraHeaders }, body: undefined };
  }
  const text = JSON.stringify(payload);
  if (text === undefined) throw new TypeError('The response payload cannot be serialised to JSON.');
  return jsonTextResponse(status, text, extraHeaders, headOnly);
}

/** A response of JSON already serialised. */
function jsonTextResponse(
  status: number,
  text: string,
  extraHeaders: Readonly<Record<string, string>> | undefined,
  headOnly: boolean,
): ResponseLike {
  // A literal then a loop, rather than a spread: most extra header sets are empty, and spreading one still costs.
  const headers: ResponseHeaders = { 'content-type': JSON_CONTENT_TYPE, 'content-length': 0 };
  for (const name in extraHeaders) headers[name] = extraHeaders[name]!;
  headers['content-length'] = Buffer.byteLength(text);
  return { status, headers, body: headOnly ? undefined : text };
}

function rawToResponse(result: RawResponse, headOnly: boolean): ResponseLike {
  const headers: ResponseHeaders = { ...result.headers };
  const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
  if (!hasLength && result.body !== undefined && !hasNoBody(result.status)) {
    headers['content-length'] = Buffer.byteLength(result.body);
  }
  return { status: result.status, headers, body: headOnly || hasNoBody(result.status) ? undefined : result.body };
}

/** Serialises what a handler returned: a plain value (200), undefined (204), json()/OAuth helpers, or a Payload. */
export function resultToResponse(result: unknown, headOnly: boolean): ResponseLike {
  if (result === undefined) return { status: 204, headers: {}, body: undefined };
  if (result instanceof ApiResponse) return build(result.status, result.body, result.headers, headOnly);
  if (result instanceof RawResponse) return rawToResponse(result, headOnly);
  if (result instanceof Payload)
    return build(result.getStatusCode(), result.getPayload(), result.getHeaders(), headOnly);
  return build(200, result, undefined, headOnly);
}

export function errorEnvelope(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** The 404 envelope around its message, serialised once: `{"error":{"code":"not_found","message":…}}`. */
const NOT_FOUND_BODY_START = JSON.stringify(errorEnvelope(NOT_FOUND_CODE, '')).slice(0, -4);
const NOT_FOUND_BODY_END = '}}';

/** The error envelope response of an unknown route, without the cost of an error object (default rendering only). */
export function notFoundResponse(message: string, headOnly: boolean): ResponseLike {
  return jsonTextResponse(
    404,
    NOT_FOUND_BODY_START + JSON.stringify(message) + NOT_FOUND_BODY_END,
    undefined,
    headOnly,
  );
}

/** Maps any thrown value to the error envelope; messages of unexpected errors are hidden unless exposeErrors is on. */
export function errorToResponse(
  error: unknown,
  exposeErrors: boolean,
  logger: ErrorLogger,
  headOnly: boolean,
): ResponseLike {
  if (error instanceof HttpError) {
    if (error.status >= 500) logger.error('Request failed', error);
    const message = error.expose || exposeErrors ? error.message : 'Unexpected API error.';
    return build(error.status, errorEnvelope(error.code, message), error.headers, headOnly);
  }
  logger.error('Unhandled error in request', error);
  const message = exposeErrors && error instanceof Error ? error.message : 'Unexpected API error.';
  return build(500, errorEnvelope('internal_error', message), undefined, headOnly);
}
