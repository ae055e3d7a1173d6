// Renders every error as the ODS does (contract §6.1, §6.3, §2.5): problem-details bodies (see api/problem-body.ts)
// with the ODS's content types; framework errors mapped to their Ed-Fi problems.
import type { IncomingHttpHeaders } from 'node:http';
import {
  ClientClosedRequest,
  InvalidInput,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
  type ErrorRenderer,
  type Logger,
  type ResponseLike,
} from '@edfi-api/framework';
import { ApiProblem, problemBody } from '../api/index.js';
import { isStorageFull } from '../store/store.js';
import { authenticationFailureOf } from './authentication-failure.js';
import { PROBLEM_AUTHENTICATED_PATH } from './authentication.js';
import { correlationIdOf } from './correlation-id.js';
import { unsupportedMediaType } from './media-type.js';
import { StorageFullEpisodes } from './storage-full.js';

const CONTROLLER_CONTENT_TYPE = 'application/json; charset=utf-8';
const MIDDLEWARE_CONTENT_TYPE = 'application/problem+json';

interface ProblemRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export function renderProblem(problem: ApiProblem, correlationId: string): ResponseLike {
  const body = problemBody(problem, correlationId);
  const contentType = problem.raisedBeforeController ? MIDDLEWARE_CONTENT_TYPE : CONTROLLER_CONTENT_TYPE;
  return {
    status: problem.problem.status,
    headers: { 'Content-Type': contentType, ...problem.headers, 'Content-Length': Buffer.byteLength(body) },
    body,
  };
}

export interface ProblemRendererOptions {
  /** Where the API is mounted (normalised: leading slash, no trailing slash, `''` for the root). */
  readonly basePath: string;
  /** Receives unexpected errors, which clients only see as a 500 `urn:ed-fi:api:system` problem. */
  readonly logger: Pick<Logger, 'error'>;
  /** Whether a path (after the base) has no route for any method, so a 405 there is a 404; default: never. */
  readonly isUnroutedPath?: (path: string) => boolean;
}

function pathAfterBase(url: string, basePath: string): string {
  const queryStart = url.indexOf('?');
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  const rest = pathname.slice(basePath.length);
  const isUnderBase = pathname.slice(0, basePath.length).toLowerCase() === basePath.toLowerCase();
  return isUnderBase && (rest === '' || rest.startsWith('/')) ? rest : pathname;
}

const emptyUnauthorized: ResponseLike = { status: 401, headers: { 'Content-Length': 0 }, body: '' };
const payloadTooLarge: ResponseLike = { status: 413, headers: { 'Content-Length': 0 }, body: '' };
/** Never delivered (the node handler reports 499 and writes nothing); not an error of ours either. */
const clientClosedRequest: ResponseLike = { status: 499, headers: { 'Content-Length': 0 }, body: '' };

function authenticationProblem(message: string): ApiProblem {
  return new ApiProblem('authenticationFailed', { errors: [message], raisedBeforeController: true });
}

function methodNotAllowed(method: string, allow: string | undefined): ApiProblem {
  return new ApiProblem('methodNotAllowed', {
    errors: [`The endpoint of the request does not support the '${method}' method.`],
    headers: allow === undefined ? {} : { Allow: allow },
    raisedBeforeController: true,
  });
}

/** The framework's `renderError` hook: every error leaves as an Ed-Fi response. */
export function createProblemRenderer(options: ProblemRendererOptions): ErrorRenderer {
  const { basePath, logger } = options;
  const storageFull = new StorageFullEpisodes(logger);

  function problemFor(error: unknown, request: ProblemRequest, correlationId: string): ApiProblem | ResponseLike {
    if (error instanceof ApiProblem) return error;
    const isProblemAuthenticated = PROBLEM_AUTHENTICATED_PATH.test(pathAfterBase(request.url, basePath));
    if (error instanceof Unauthorized) {
      return isProblemAuthenticated
        ? authenticationProblem(authenticationFailureOf(request.headers))
        : emptyUnauthorized;
    }
    // Data paths are authenticated before routing (see authentication.ts), so these come after any 401. A path under a
    // resource the model does not have has no route for any method, so a 405 there is a 404.
    if (
      error instanceof NotFound ||
      (error instanceof MethodNotAllowed && options.isUnroutedPath?.(pathAfterBase(request.url, basePath)) === true)
    )
      return new ApiProblem('notFound', { raisedBeforeController: true });
    if (error instanceof MethodNotAllowed) return methodNotAllowed(request.method, error.headers.allow);
    if (error instanceof UnsupportedMediaType) return unsupportedMediaType(request.headers);
    if (error instanceof PayloadTooLarge) return payloadTooLarge;
    if (error instanceof ClientClosedRequest) return clientClosedRequest;
    if (error instanceof TooManyRequests) return new ApiProblem('tooManyFailedAttempts', { headers: error.headers });
    if (error instanceof InvalidInput) return new ApiProblem('badRequest', { errors: [error.message] });
    if (isStorageFull(error)) return storageFull.problemFor(error);
    logger.error(`Unexpected error while serving ${request.method} ${request.url}`, { correlationId, error });
    return new ApiProblem('system');
  }

  return (error, request) => {
    const correlationId = correlationIdOf(request);
    const outcome = problemFor(error, request, correlationId);
    return outcome instanceof ApiProblem ? renderProblem(outcome, correlationId) : outcome;
  };
}
