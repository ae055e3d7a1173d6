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
