// Public, model-driven routes around the data API: discovery, health, OpenAPI metadata, the load order, the XSD
// metadata and the documentation page (Swagger UI over the OpenAPI documents).
import { docsPageRoutes, raw, route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import { findEdFiInputsDir, type ModelRegistry, type ResourceModel } from '../../model/index.js';
import { dataModelsOf } from './api-version.js';
import { discoveryDocument } from './discovery-document.js';
import { sendPlainText, sendTagged, tagJson, type TaggedJson } from './entity-tag.js';
import { metadataIndex, OPENAPI_DOCUMENT_PATHS, type MetadataDocument } from './metadata-index.js';
import { openApiDocument, openApiSection, type OpenApiSection } from './openapi/openapi-document.js';
import { PerRootCache } from './per-root-cache.js';
import { profileDocumentRoute, profileSections } from './profile-metadata.js';
import type { ProfileCatalog } from '../../profiles/index.js';
import { normalizeBasePath, requestRoot, type TrustProxy } from './request-root.js';
import { XsdMetadata, xsdSchemasIn } from './xsd-metadata.js';

export { normalizeBasePath, parseTrustProxy, requestRoot, type TrustProxy } from './request-root.js';
export { buildVersion } from './api-version.js';
export { discoveryDocument } from './discovery-document.js';
export { sendTagged, tagJson, type TaggedJson } from './entity-tag.js';
export { PerRootCache } from './per-root-cache.js';
export type { MetadataDocument } from './metadata-index.js';
export { openApiDocument, type OpenApiSection } from './openapi/openapi-document.js';
export { scalarSchema } from './openapi/component-schemas.js';

export interface MetaContext {
  readonly registry: ModelRegistry;
  /** Where the API is mounted, e.g. `/v7.3/api`; `''` or `/` for the server root. */
  readonly basePath: string;
  /** Serve the documentation page at `{base}/docs` and link it from discovery; default true. */
  readonly docs?: boolean;
  /** The Ed-Fi inputs folder the XSDs are served from; default `shared/edfi` beside the repository. */
  readonly edFiInputsFolder?: string;
  /** Which `X-Forwarded-*` headers build absolute URLs; none by default. */
  readonly trustProxy?: TrustProxy;
  /** Documents served by other routes that `/metadata` lists too (the composite categories'). */
  readonly metadataDocuments?: readonly MetadataDocument[];
  /** The profiles listed in `/metadata`, each with its OpenAPI document; none when absent. */
  readonly profiles?: ProfileCatalog;
}

/** The documentation page's path below the base path. */
export const DOCS_PATH = '/docs';

/** Swagger UI over the server's two OpenAPI documents; authorizing uses their OAuth2 client-credentials flow. */
function docsRoutes(): RouteDefinition[] {
  return docsPageRoutes({
    path: DOCS_PATH,
    title: 'Ed-Fi API documentation',
    documents: [
      { name: 'Resources', url: `metadata${OPENAPI_DOCUMENT_PATHS.resources}` },
      { name: 'Descriptors', url: `metadata${OPENAPI_DOCUMENT_PATHS.descriptors}` },
    ],
  });
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

/** Each optional extension served gets its own document (resources and descriptors): `/metadata/data/v3/sample/swagger.json`. */
function extensionOpenApiRoutes(registry: ModelRegistry, rootOf: (ctx: RequestContext) => string): RouteDefinition[] {
  return registry.extensions.map((namespace) =>
    openApiRoute(
      `/data/v3/${namespace}/swagger.json`,
      () => registry.allResources.filter((resource) => resource.namespace === namespace),
      rootOf,
    ),
  );
}

export function metaRoutes(context: MetaContext): RouteDefinition[] {
  const { registry } = context;
  const docs = context.docs ?? true;
  const basePath = normalizeBasePath(context.basePath);
  const rootOf = (ctx: RequestContext): string => requestRoot(ctx, basePath, context.trustProxy);
  const indexes = new PerRootCache((root) => tagJson(metadataIndex(root, context.metadataDocuments)));
  const dataModels = dataModelsOf(registry.extensionProjects);

  return [
    route.get('/', PUBLIC, (ctx) => discoveryDocument(rootOf(ctx), docs ? DOCS_PATH : undefined, dataModels)),
    route.get('/health', PUBLIC, () => sendPlainText('Healthy')),
    route.get('/metadata', PUBLIC, async (ctx) => {
      const root = rootOf(ctx);
      const profiles = context.profiles === undefined ? [] : await profileSections(context.profiles, root);
      const index =
        profiles.length === 0
          ? indexes.get(root)
          : tagJson([...metadataIndex(root, context.metadataDocuments), ...profiles]);
      return sendTagged(ctx, index);
    }),
    ...(context.profiles === undefined ? [] : [profileDocumentRoute(context.profiles, rootOf)]),
    openApiRoute(OPENAPI_DOCUMENT_PATHS.resources, () => registry.resources, rootOf),
    openApiRoute(OPENAPI_DOCUMENT_PATHS.descriptors, () => registry.descriptorResources, rootOf),
    ...extensionOpenApiRoutes(registry, rootOf),
    route.get('/metadata/data/v3/dependencies', PUBLIC, () =>
      registry.dependencyOrder().map(({ resource, order, operations }) => ({ resource, order, operations })),
    ),
    ...(docs ? docsRoutes() : []),
    ...xsdRoutes(new XsdMetadata(xsdSchemasIn(context.edFiInputsFolder ?? findEdFiInputsDir())), rootOf),
  ];
}

function xsdRoutes(xsd: XsdMetadata, rootOf: (ctx: RequestContext) => string): RouteDefinition[] {
  return [
    route.get('/metadata/xsd', PUBLIC, (ctx) => xsd.listing(rootOf(ctx))),
    route.get('/metadata/xsd/{schema}/files', PUBLIC, (ctx) => xsd.fileUrls(rootOf(ctx), ctx.params.schema)),
    route.get('/metadata/xsd/{schema}/{file}', PUBLIC, (ctx) => {
      const text = xsd.fileText(ctx.params.schema, ctx.params.file);
      if (text === undefined) throw new ApiProblem('notFound', { raisedBeforeController: true });
      return raw(text, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
    }),
  ];
}
