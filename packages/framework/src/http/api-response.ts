// A handler result carrying an explicit status and headers; the response writer recognises it (and its subclasses).

export class ApiResponse {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** Returns `body` as JSON with the given status (default 200) and extra headers. */
export function json(body: unknown, init?: { status?: number; headers?: Record<string, string> }): ApiResponse {
  return new ApiResponse(body, init?.status ?? 200, init?.headers ?? {});
}

/** A response written exactly as given: the body is already serialised and the headers (content-type included) are the caller's. */
export class RawResponse {
  constructor(
    readonly body: string | Buffer | undefined,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string | number>> = {},
  ) {}
}

/** Returns a pre-serialised body (JSON text, plain text, XML…) with the given status and headers, as is. */
export function raw(
  body: string | Buffer | undefined,
  init?: { status?: number; headers?: Record<string, string | number> },
): RawResponse {
  return new RawResponse(body, init?.status ?? 200, init?.headers ?? {});
}
