// Resolves the `{namespace}/{resource}` of a data route and gathers what the operations need from the request.
import type { RequestContext } from '@edfi-api/framework';
import { ApiProblem, type Caller, type DataRequest, type QueryParameters, type ReadRequest } from '../../api/index.js';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { aliasedNamespace } from './namespace-aliases.js';

export interface ResourceRouteParams {
  readonly namespace: string;
  readonly resource: string;
}

/** The context of a data route: authenticated by an access token, whose caller is `ctx.identity`. */
export type DataRouteContext = RequestContext<ResourceRouteParams, Caller>;

/** Where the `{namespace}` segment of a data route's path starts. */
const NAMESPACE_START = '/data/v3/'.length;

/**
 * The path of the resource collection as requested: the route path without a trailing slash or the `{id}`, and with the
 * Ed-Fi name of a namespace requested by its alias.
 */
function collectionPathOf(ctx: DataRouteContext, resource: ResourceModel, isItemRoute: boolean): string {
  const { path } = ctx;
  const withoutSlash = path.endsWith('/') ? path.slice(0, -1) : path;
  const collection = isItemRoute ? withoutSlash.slice(0, withoutSlash.lastIndexOf('/')) : withoutSlash;
  if (aliasedNamespace(ctx.params.namespace) === undefined) return collection;
  const namespaceEnd = collection.indexOf('/', NAMESPACE_START);
  return `${collection.slice(0, NAMESPACE_START)}${resource.namespace}${collection.slice(namespaceEnd)}`;
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
  const { namespace } = ctx.params;
  const resource = registry.getResource(aliasedNamespace(namespace) ?? namespace, ctx.params.resource);
  if (resource === undefined) throw new ApiProblem('notFound', { raisedBeforeController });
  return resource;
}

const DATA_RESOURCE_PATH = /^\/data\/v3\/([^/]+)\/([^/?]+)/i;

/**
 * Whether a path (after the base) lies under a data resource the model does not have: the ODS has no route there at
 * all, so every method answers 404 rather than 405.
 */
export function isUnknownResourcePath(path: string, registry: ModelRegistry): boolean {
  const match = DATA_RESOURCE_PATH.exec(path);
  if (match === null) return false;
  return registry.getResource(match[1]!, match[2]!) === undefined;
}

/** The request of a change-query or partition route. */
export function resourceReadOf(ctx: DataRouteContext, registry: ModelRegistry): ReadRequest {
  return { resource: resourceOf(ctx, registry, false), caller: ctx.identity, headers: ctx.headers };
}

/** The `{root}` of a request (see meta/request-root.ts). */
export type RootOf = (ctx: RequestContext<unknown>) => string;

export function dataRequestOf(
  ctx: DataRouteContext,
  registry: ModelRegistry,
  rootOf: RootOf,
  isItemRoute: boolean,
): DataRequest {
  const resource = resourceOf(ctx, registry);
  return {
    resource,
    caller: ctx.identity,
    // Only writes answer a Location, so reads never pay for building the URL.
    get collectionUrl() {
      return rootOf(ctx) + collectionPathOf(ctx, resource, isItemRoute);
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
