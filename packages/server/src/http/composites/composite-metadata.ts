// The composite categories' OpenAPI documents (`/metadata/composites/v1/{organization}/{category}/swagger.json`,
// public like the other metadata) and their entries in the `/metadata` list.
import { route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import type { CompiledCategory } from '../../composites/index.js';
import { PerRootCache, sendTagged, tagJson, type MetadataDocument, type OpenApiSection } from '../meta/index.js';
import { compositeDocument, compositeSection } from './composite-openapi.js';

const PUBLIC = { auth: ['none'] } as const;

function documentPathOf(category: CompiledCategory): string {
  return `/composites/v1/${category.organization}/${category.name}/swagger.json`;
}

/** One entry per category, named like the ODS names it (`Enrollment`), in the ODS's Composites section. */
export function compositeMetadataDocuments(categories: readonly CompiledCategory[]): MetadataDocument[] {
  return categories.map((category) => ({
    section: 'Composites',
    name: category.name.charAt(0).toUpperCase() + category.name.slice(1),
    path: documentPathOf(category),
    prefix: 'Composites',
  }));
}

export function compositeMetadataRoutes(
  categories: readonly CompiledCategory[],
  rootOf: (ctx: RequestContext) => string,
): RouteDefinition[] {
  return categories.map((category) => {
    let section: OpenApiSection | undefined;
    const documents = new PerRootCache((root) => {
      section ??= compositeSection(category);
      return tagJson(compositeDocument(category, section, root));
    });
    return route.get(`/metadata${documentPathOf(category)}`, PUBLIC, (ctx) =>
      sendTagged(ctx, documents.get(rootOf(ctx))),
    );
  });
}
