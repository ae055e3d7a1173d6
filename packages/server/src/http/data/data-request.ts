// Resolves the `{namespace}/{resource}` of a data route and gathers what the operations need from the request.
import type { RequestContext } from '@edfi-api/framework';
import { ApiProblem, type DataRequest, type QueryParameters, type ReadRequest } from '../../api/index.js';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { callerOf } from '../../security/index.js';

export interface ResourceRouteParams {
  readonly namespace: string;
  readonly resource: string;
}

/** The path of the resource collection as requested: the route path without a trailing slash or the `{id}`. */
function collectionPathOf(path: string, isItemRoute: boolean): string {
  const withoutSlash = path.endsWith('/') ? path.slice(0, -1) : path;
  return isItemRoute ? withoutSlash.slice(0, withoutSlash.lastIndexOf('/')) : withoutSlash;
}

/**
 * The resource the route names. The ODS has no data route for an unknown resource, so its routing 404 answers; the
 * change-query and partition controllers resolve the name themselves and answer their own 404.
 */
export function resourceOf(
  ctx: RequestContext<ResourceRouteParams>,
  registry: ModelRegistry,
  raisedBeforeController = true,
): ResourceModel {
  const resource = registry.getResource(ctx.params.namespace, ctx.params.resource);
  if (resource === undefined) throw new ApiProblem('notFound', { raisedBeforeController });
  return resource;
}

/** The request of a change-query or partition route. */
export function resourceReadOf(ctx: RequestContext<ResourceRouteParams>, registry: ModelRegistry): ReadRequest {
  return { resource: resourceOf(ctx, registry, false), caller: callerOf(ctx), headers: ctx.headers };
}

/** The `{root}` of a request (see meta/request-root.ts). */
export type RootOf = (ctx: RequestContext<unknown>) => string;

export function dataRequestOf(
  ctx: RequestContext<ResourceRouteParams>,
  registry: ModelRegistry,
  rootOf: RootOf,
  isItemRoute: boolean,
): DataRequest {
  return {
    resource: resourceOf(ctx, registry),
    caller: callerOf(ctx),
    // Only writes answer a Location, so reads never pay for building the URL.
    get collectionUrl() {
      return rootOf(ctx) + collectionPathOf(ctx.path, isItemRoute);
    },
    headers: ctx.headers,
  };
}

/** Parameter names match case-insensitively; of repeated names the first value counts, as ASP.NET binds them. */
export function queryParametersOf(ctx: RequestContext<unknown>): QueryParameters {
  const parameters = new Map<string, string>();
  const { url } = ctx.raw;
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return parameters;
  for (const [name, value] of new URLSearchParams(url.slice(queryStart + 1))) {
    const key = name.toLowerCase();
    if (!parameters.has(key)) parameters.set(key, value);
  }
  return parameters;
}
