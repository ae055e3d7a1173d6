// The decorator-free way to declare routes: route.get('/users/{int:id}', { auth: ['bearer'] }, (ctx) => …).

import type { ParamsOf } from './path-params.js';
import type { RequestContext } from '../http/context.js';
import type { HttpMethod, RouteDefinition, RouteOptions } from './route-definition.js';

const declaredRoutes = new WeakSet<object>();

/** True for objects created by the `route.*` helpers, which discovery registers from module exports. */
export function isDeclaredRoute(value: unknown): value is RouteDefinition {
  return typeof value === 'object' && value !== null && declaredRoutes.has(value);
}

type Handler<P extends string> = (ctx: RequestContext<ParamsOf<P>>) => unknown;

interface RouteFactory {
  <P extends string>(path: P, handler: Handler<P>): RouteDefinition<P>;
  <P extends string>(path: P, options: RouteOptions, handler: Handler<P>): RouteDefinition<P>;
}

function factory(method: HttpMethod): RouteFactory {
  return (<P extends string>(path: P, optionsOrHandler: RouteOptions | Handler<P>, maybeHandler?: Handler<P>) => {
    const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
    const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
    if (handler === undefined) throw new TypeError(`route.${method.toLowerCase()}('${path}') needs a handler.`);
    const definition: RouteDefinition<P> = Object.freeze({ ...options, method, path, handler });
    declaredRoutes.add(definition);
    return definition;
  }) as RouteFactory;
}

export const route = Object.freeze({
  get: factory('GET'),
  post: factory('POST'),
  put: factory('PUT'),
  patch: factory('PATCH'),
  delete: factory('DELETE'),
  head: factory('HEAD'),
  options: factory('OPTIONS'),
});
