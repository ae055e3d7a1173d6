// The shape every route declaration (decorator, route.* helper or programmatic) is normalised into.

import type { RequestContext } from '../http/context.js';
import type { ParamsOf } from './path-params.js';

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

export type RouteHandler<P extends string = string> = (ctx: RequestContext<ParamsOf<P>>) => unknown;

export interface RouteDefinition<P extends string = string> extends RouteOptions {
  readonly method: HttpMethod;
  readonly path: P;
  // Method syntax keeps definitions with specific paths assignable to RouteDefinition<string>.
  handler(ctx: RequestContext<ParamsOf<P>>): unknown;
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
