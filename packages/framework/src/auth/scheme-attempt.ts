// The seam between the authentication chain and the individual schemes (API key, bearer, Basic, client credentials).

import type { IncomingHttpHeaders } from 'node:http';
import type { Principal, QueryParams } from '../types.js';

/** The parts of a request that authentication reads. */
export interface AuthRequest {
  readonly headers: IncomingHttpHeaders;
  readonly query: QueryParams;
  /** The parsed JSON or form body, memoised; may throw an HttpError for a bad body. */
  readBody(): Promise<unknown>;
  /** A principal established earlier for this request (onRequest); a chain accepting its scheme keeps it. */
  readonly auth?: Principal;
}

/** Returned by a scheme when the request carries none of its credentials, so the chain moves on silently. */
export const ABSENT: unique symbol = Symbol('credentials absent');

export type AttemptOutcome = Principal | typeof ABSENT;

/** Authenticates with one scheme; throws when credentials were presented and rejected. */
export type SchemeAttempt = (req: AuthRequest) => AttemptOutcome | Promise<AttemptOutcome>;
