// The framework's error catalogue: every error it raises is declared here with its status and envelope code.

export interface HttpErrorOptions {
  /** Machine code in the error envelope; defaults to the subclass's code, or `error`. */
  readonly code?: string;
  /** Whether the message may be shown to the client; defaults to `status < 500`. */
  readonly expose?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly expose: boolean;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? 'error';
    this.expose = options.expose ?? status < 500;
    this.headers = options.headers ?? {};
  }
}

function withCode(options: HttpErrorOptions, code: string): HttpErrorOptions {
  return options.code === undefined ? { ...options, code } : options;
}

/** The envelope code of NotFound, which the pipeline also writes directly for unknown routes. */
export const NOT_FOUND_CODE = 'not_found';

export class NotFound extends HttpError {
  constructor(message = 'Not found.', options: HttpErrorOptions = {}) {
    super(404, message, withCode(options, NOT_FOUND_CODE));
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(allowed: readonly string[], message = 'Method not allowed.', options: HttpErrorOptions = {}) {
    super(
      405,
      message,
      withCode({ ...options, headers: { ...options.headers, allow: allowed.join(', ') } }, 'method_not_allowed'),
    );
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'Not authed.', options: HttpErrorOptions = {}) {
    super(401, message, withCode(options, 'unauthorized'));
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'Forbidden.', options: HttpErrorOptions = {}) {
    super(403, message, withCode(options, 'forbidden'));
  }
}

export class InvalidInput extends HttpError {
  constructor(message = 'Invalid input.', options: HttpErrorOptions = {}) {
    super(400, message, withCode(options, 'invalid_input'));
  }
}

/** Rate limited (429); `Retry-After` in the headers. Thrown by a client repository, it is not turned into a 401. */
export class TooManyRequests extends HttpError {
  constructor(message = 'Too many requests.', options: HttpErrorOptions = {}) {
    super(429, message, withCode(options, 'too_many_requests'));
  }
}

/** The client went away before its request was read or answered (499, nginx's convention); nobody sees a response. */
export class ClientClosedRequest extends HttpError {
  constructor(message = 'The client closed the request.', options: HttpErrorOptions = {}) {
    super(499, message, withCode(options, 'client_closed_request'));
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message = 'Request body is too large.', options: HttpErrorOptions = {}) {
    super(413, message, withCode(options, 'payload_too_large'));
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message = 'Unsupported request content type.', options: HttpErrorOptions = {}) {
    super(415, message, withCode(options, 'unsupported_media_type'));
  }
}

export class InternalError extends HttpError {
  constructor(message = 'Unexpected API error.', options: HttpErrorOptions = {}) {
    super(500, message, withCode(options, 'internal_error'));
  }
}

/** Creates an error without capturing a stack trace: for expected outcomes on hot paths (unknown routes, 405). */
export function withoutStack<E extends Error>(create: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return create();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Thrown at start-up for invalid configuration or route declarations; never reaches a client. */
export class ConfigurationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigurationError';
  }
}
