// Public, model-driven routes around the data API: discovery, health, OpenAPI metadata and the load order.
import { route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { discoveryDocument } from './discovery-document.js';
import { sendPlainText, sendTagged, tagJson, type TaggedJson } from './entity-tag.js';
import { metadataIndex, OPENAPI_DOCUMENT_PATHS } from './metadata-index.js';
import { openApiDocument, openApiSection, type OpenApiSection } from './openapi/openapi-document.js';
import { PerRootCache } from './per-root-cache.js';
import { normalizeBasePath, requestRoot, type TrustProxy } from './request-root.js';

export { normalizeBasePath, parseTrustProxy, requestRoot, type TrustProxy } from './request-root.js';
export { buildVersion } from './api-version.js';

export interface MetaContext {
  readonly registry: ModelRegistry;
  /** Where the API is mounted, e.g. `/v7.3/api`; `''` or `/` for the server root. */
  readonly basePath: string;
  /** Which `X-Forwarded-*` headers build absolute URLs; none by default. */
  readonly trustProxy?: TrustProxy;
}

const PUBLIC = { auth: ['none'] } as const;

/** An OpenAPI document served with an ETag; generated on first request, then kept per root. */
function openApiRoute(
  path: string,
  resources: () => readonly ResourceModel[],
  rootOf: (ctx: RequestContext) => string,
): RouteDefinition {
  let section: OpenApiSection | undefined;
  const documents = new PerRootCache<TaggedJson>((root) => {
    section ??= openApiSection(resources());
    return tagJson(openApiDocument(section, root));
  });
  return route.get(`/metadata${path}`, PUBLIC, (ctx) => sendTagged(ctx, documents.get(rootOf(ctx))));
}

export function metaRoutes(context: MetaContext): RouteDefinition[] {
  const { registry } = context;
  const basePath = normalizeBasePath(context.basePath);
  const rootOf = (ctx: RequestContext): string => requestRoot(ctx, basePath, context.trustProxy);
  const indexes = new PerRootCache((root) => tagJson(metadataIndex(root)));

  return [
    route.get('/', PUBLIC, (ctx) => discoveryDocument(rootOf(ctx))),
    route.get('/health', PUBLIC, () => sendPlainText('Healthy')),
    route.get('/metadata', PUBLIC, (ctx) => sendTagged(ctx, indexes.get(rootOf(ctx)))),
    openApiRoute(OPENAPI_DOCUMENT_PATHS.resources, () => registry.resources, rootOf),
    openApiRoute(OPENAPI_DOCUMENT_PATHS.descriptors, () => registry.descriptorResources, rootOf),
    route.get('/metadata/data/v3/dependencies', PUBLIC, () =>
      registry.dependencyOrder().map(({ resource, order, operations }) => ({ resource, order, operations })),
    ),
  ];
}
