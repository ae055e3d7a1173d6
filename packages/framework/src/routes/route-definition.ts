// The shape every route declaration (decorator, route.* helper or programmatic) is normalised into.

import type { AuthScheme, HttpMethod, ParameterDeclaration, RequestContext } from '../types.js';
import type { ParamsOf } from './path-params.js';

export interface RouteOptions {
  /** Accepted authentication methods in order; defaults to the server's `defaultAuth` (bearer). */
  readonly auth?: readonly AuthScheme[];
  /** Scopes that must all be granted to the caller. */
  readonly scopes?: readonly string[];
  readonly parameters?: readonly ParameterDeclaration[];
  readonly summary?: string;
  readonly operationId?: string;
  readonly tags?: readonly string[];
  /** Serve this route for these versions instead of the version of the folder it was discovered in. */
  readonly versions?: readonly number[];
}

export type RouteHandler<P extends string = string, Identity = unknown> = (
  ctx: RequestContext<ParamsOf<P>, Identity>,
) => unknown;

export interface RouteDefinition<P extends string = string, Identity = unknown> extends RouteOptions {
  readonly method: HttpMethod;
  readonly path: P;
  // Method syntax keeps definitions with specific paths and identities assignable to RouteDefinition<string>.
  handler(ctx: RequestContext<ParamsOf<P>, Identity>): unknown;
  /** Where the route was declared (file and member), used in start-up errors. */
  readonly source?: string;
}

/** A registered route as the server reports it (listing, OpenAPI generation, tests). */
export interface RouteInfo {
  readonly version: number;
  readonly method: HttpMethod;
  readonly path: string;
  readonly auth: readonly AuthScheme[];
  readonly scopes: readonly string[];
  readonly parameters: readonly ParameterDeclaration[];
  readonly source: string;
  readonly summary?: string;
  readonly operationId?: string;
  readonly tags?: readonly string[];
}
