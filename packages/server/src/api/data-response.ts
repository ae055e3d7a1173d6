// The responses data operations produce: status, headers and an already-serialised body.

export interface DataResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | number>>;
  /** Undefined for 204 and 304. */
  readonly body: string | undefined;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(
  status: number,
  json: string,
  headers: Readonly<Record<string, string>> = {},
): DataResponse {
  return {
    status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers, 'Content-Length': Buffer.byteLength(json) },
    body: json,
  };
}

/** POST answers 200/201 with headers and a zero-length body; 204 and 304 carry no body at all. */
export function emptyResponse(status: number, headers: Readonly<Record<string, string>> = {}): DataResponse {
  if (status === 204 || status === 304) return { status, headers, body: undefined };
  return { status, headers: { ...headers, 'Content-Length': 0 }, body: '' };
}

/** The `ETag` header carries the stored etag in double quotes (contract §3.8). */
export function etagHeader(etag: string): string {
  return `"${etag}"`;
}
