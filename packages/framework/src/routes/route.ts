// The decorator-free way to declare routes: route.get('/users/{int:id}', { auth: ['bearer'] }, (ctx) => …), with
// `ctx.params` typed from the path and `ctx.identity` from the schemes the route accepts.

import type { DefaultAuthOf, IdentitiesOf, IdentityMap, UnknownIdentities } from '../auth/identities.js';
import type { AuthScheme, HttpMethod, RequestContext } from '../types.js';
import type { ParamsOf } from './path-params.js';
import type { RouteDefinition, RouteOptions } from './route-definition.js';

const declaredRoutes = new WeakSet<object>();

/** True for objects created by the `route.*` helpers, which discovery registers from module exports. */
export function isDeclaredRoute(value: unknown): value is RouteDefinition {
  return typeof value === 'object' && value !== null && declaredRoutes.has(value);
}

type Handler<P extends string, Identity> = (ctx: RequestContext<ParamsOf<P>, Identity>) => unknown;

interface RouteFactory<M extends IdentityMap, D extends readonly AuthScheme[]> {
  <P extends string>(path: P, handler: Handler<P, M[D[number]]>): RouteDefinition<P, M[D[number]]>;
  <P extends string, const A extends readonly AuthScheme[] = D>(
    path: P,
    options: RouteOptions & { readonly auth?: A },
    handler: Handler<P, M[A[number]]>,
  ): RouteDefinition<P, M[A[number]]>;
}

/** One factory per method; `M` gives each scheme's identity type and `D` the schemes of routes that name none. */
export interface RouteBuilder<
  M extends IdentityMap = UnknownIdentities,
  D extends readonly AuthScheme[] = readonly AuthScheme[],
> {
  readonly get: RouteFactory<M, D>;
  readonly post: RouteFactory<M, D>;
  readonly put: RouteFactory<M, D>;
  readonly patch: RouteFactory<M, D>;
  readonly delete: RouteFactory<M, D>;
  readonly head: RouteFactory<M, D>;
  readonly options: RouteFactory<M, D>;
}

function factory(method: HttpMethod): RouteFactory<UnknownIdentities, readonly AuthScheme[]> {
  return (<P extends string>(
    path: P,
    optionsOrHandler: RouteOptions | Handler<P, unknown>,
    maybeHandler?: Handler<P, unknown>,
  ) => {
    const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
    const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
    if (handler === undefined) throw new TypeError(`route.${method.toLowerCase()}('${path}') needs a handler.`);
    const definition: RouteDefinition<P> = Object.freeze({ ...options, method, path, handler });
    declaredRoutes.add(definition);
    return definition;
  }) as RouteFactory<UnknownIdentities, readonly AuthScheme[]>;
}

/** Route factories whose handlers see `ctx.identity` as unknown (see `routes` for typed identities). */
export const route: RouteBuilder = Object.freeze({
  get: factory('GET'),
  post: factory('POST'),
  put: factory('PUT'),
  patch: factory('PATCH'),
  delete: factory('DELETE'),
  head: factory('HEAD'),
  options: factory('OPTIONS'),
});

/**
 * The same factories, typed for a server configured with options of type `O`: `ctx.identity` is what the bearer
 * verifier or client repository returns for the schemes the route accepts, e.g. `routes<typeof options>()`.
 */
export function routes<O>(): RouteBuilder<IdentitiesOf<O>, DefaultAuthOf<O>> {
  return route as unknown as RouteBuilder<IdentitiesOf<O>, DefaultAuthOf<O>>;
}
