// The framework's ground floor: the vocabulary router/, routes/, http/, auth/ and openapi/ share. It imports only leaf
// modules (no imports of their own), so no import between the layers can close a circle through it.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Token } from './auth/token.js';
import type { InjectionToken } from './container/container-like.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Authentication methods a route may accept, tried in declaration order. `none` marks a public route. */
export type AuthScheme = 'apiKey' | 'bearer' | 'basic' | 'client' | 'none';

/** An OpenAPI path parameter declaration (`@Parameter`), giving a path parameter an explicit pattern or type. */
export interface ParameterDeclaration {
  readonly name: string;
  readonly in: 'path';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema: { readonly type: 'string' | 'integer'; readonly pattern?: string };
}

/** Query-string values (last value wins), with `getAll` for repeated names. */
export type QueryParams = Readonly<Record<string, string | undefined>> & {
  getAll(name: string): string[];
};

/** Who made the request, as established by the route's authentication chain. */
export interface Principal<Identity = unknown> {
  readonly scheme: AuthScheme;
  readonly clientId?: string;
  /** The verified bearer token, when the verifier returned a Token (the JWT verifier does). */
  readonly token?: Token;
  readonly scopes: readonly string[];
  /** What the verifier or validator returned as `identity` (the Token for a Token); undefined when anonymous. */
  readonly identity: Identity;
}

/**
 * What a bearer verifier or a client validator may return to hand handlers a typed `ctx.identity`: the identity
 * object as is, with the client id and scopes the route's checks use.
 */
export interface Authenticated<Identity> {
  readonly identity: Identity;
  readonly clientId?: string;
  readonly scopes?: readonly string[];
}

export interface RequestContext<Params = Record<string, string | number>, Identity = unknown> {
  readonly method: string;
  /** The path after the version prefix, as matched (e.g. `/users/1`). */
  readonly path: string;
  readonly version: number;
  readonly params: Params;
  readonly query: QueryParams;
  readonly headers: IncomingHttpHeaders;
  readonly auth: Principal<Identity>;
  /** What the route's authentication established (see `Authenticated`); undefined on public routes. */
  readonly identity: Identity;
  /** Parses the request body once (JSON or form) and returns it; later calls return the same value. */
  body<T = unknown>(): Promise<T>;
  /** The request body bytes as received (within the body limit), read once; for applications that parse it themselves. */
  rawBody(): Promise<Buffer>;
  /** Resolves a service from the request's container scope. */
  get<T>(token: InjectionToken<T>): T;
  readonly raw: { readonly url: string; readonly req?: IncomingMessage };
}

/** The context `onRequest` receives: no route is chosen yet (so no params), but it may authenticate the caller. */
export interface IncomingRequestContext extends Omit<RequestContext<Readonly<Record<string, never>>>, 'params'> {
  /**
   * Runs these schemes now (as a route would) and keeps the principal: a route accepting the scheme that succeeded
   * then only checks its scopes. Rejects with Unauthorized (401) like a route does.
   */
  authenticate(schemes: readonly AuthScheme[]): Promise<Principal>;
}
