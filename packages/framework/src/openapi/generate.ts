// Builds a deterministic OpenAPI 3.1 document for one API version from the registered routes.

import { ConfigurationError } from '../errors.js';
import type { HttpMethod } from '../types.js';
import type { RouteInfo } from '../routes/route-definition.js';
import type { OpenApiDocument, OpenApiMethod, OperationObject, PathItemObject, RequestBodyObject } from './document.js';
import { withOperationIds } from './operation-id.js';
import { toOpenApiPath, type OpenApiPath } from './path-template.js';
import { operationResponses, sharedResponses, sharedSchemas } from './responses.js';
import { securityRequirements, securitySchemes } from './security.js';

export type { OpenApiDocument } from './document.js';

export interface OpenApiOptions {
  readonly title?: string;
  /** `info.version`, the document's own version; defaults to `'1'`. */
  readonly version?: string;
  readonly description?: string;
  readonly servers?: readonly { readonly url: string }[];
  /** Prepended to every route path, e.g. `/api/v1`. */
  readonly pathPrefix?: string;
  /** Makes the `client` scheme an oauth2 client-credentials flow with this token URL. */
  readonly tokenUrl?: string;
}

/** The order OpenAPI lists operations in a path item. */
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'];

const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH']);

const FREE_FORM_BODY: RequestBodyObject = {
  content: {
    'application/json': { schema: { type: 'object', additionalProperties: true } },
    'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: true } },
  },
};

interface PlacedRoute extends OpenApiPath {
  readonly route: RouteInfo;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePlaced(a: PlacedRoute, b: PlacedRoute): number {
  return (
    compareCodeUnits(a.path, b.path) || METHOD_ORDER.indexOf(a.route.method) - METHOD_ORDER.indexOf(b.route.method)
  );
}

function buildOperation(placed: PlacedRoute & { readonly operationId: string }, tokenUrl?: string): OperationObject {
  const { route, parameters, operationId } = placed;
  const security = securityRequirements(route, tokenUrl);
  const takesBody = BODY_METHODS.has(route.method);
  return {
    ...(route.tags !== undefined && route.tags.length > 0 && { tags: [...route.tags] }),
    ...(route.summary !== undefined && { summary: route.summary }),
    operationId,
    ...(parameters.length > 0 && { parameters }),
    ...(takesBody && { requestBody: FREE_FORM_BODY }),
    responses: operationResponses({
      takesBody,
      secured: route.auth.some((scheme) => scheme !== 'none'),
      scoped: route.scopes.length > 0,
    }),
    ...(security !== undefined && { security }),
  };
}

export function generateOpenApi(
  routes: readonly RouteInfo[],
  apiVersion: number,
  options: OpenApiOptions = {},
): OpenApiDocument {
  const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  const placed = routes
    .filter((route) => route.version === apiVersion)
    .map((route): PlacedRoute => {
      const { path, parameters } = toOpenApiPath(route);
      return { route, path: prefix + path, parameters };
    })
    .sort(comparePlaced);

  const paths: Record<string, { [M in OpenApiMethod]?: OperationObject }> = {};
  const placedBy = new Map<string, PlacedRoute>();
  for (const entry of withOperationIds(placed)) {
    const key = `${entry.route.method} ${entry.path}`;
    const other = placedBy.get(key);
    if (other !== undefined) {
      throw new ConfigurationError(
        `${key} is ambiguous in OpenAPI version ${apiVersion}: ${other.route.source} and ${entry.route.source}.`,
      );
    }
    placedBy.set(key, entry);
    const item = (paths[entry.path] ??= {});
    item[entry.route.method.toLowerCase() as OpenApiMethod] = buildOperation(entry, options.tokenUrl);
  }

  const schemes = securitySchemes(
    placed.map(({ route }) => route),
    options.tokenUrl,
  );
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'API',
      ...(options.description !== undefined && { description: options.description }),
      version: options.version ?? '1',
    },
    ...(options.servers !== undefined && { servers: options.servers.map(({ url }) => ({ url })) }),
    paths: paths satisfies Record<string, PathItemObject>,
    components: {
      schemas: sharedSchemas,
      responses: sharedResponses,
      ...(Object.keys(schemes).length > 0 && { securitySchemes: schemes }),
    },
  };
}
