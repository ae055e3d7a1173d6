// Profiles in the OpenAPI metadata (contract §1.4): one section per valid profile in `GET /metadata`, and its document
// at `/metadata/data/v3/profiles/{profileName}/swagger.json`. Profiles change while the server runs, so these are
// built per request rather than kept.
import { route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import type { CompiledProfile, ProfileCatalog } from '../../profiles/index.js';
import { sendTagged, tagJson } from './entity-tag.js';
import type { MetadataSection } from './metadata-index.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { profileOpenApiSection } from './openapi/profile-document.js';

const PUBLIC = { auth: ['none'] } as const;

async function validProfiles(catalog: ProfileCatalog): Promise<CompiledProfile[]> {
  return (await catalog.all()).filter((profile) => profile.problems.length === 0);
}

/** The index's sections for the valid profiles, by name, after the others. */
export async function profileSections(catalog: ProfileCatalog, root: string): Promise<MetadataSection[]> {
  return (await validProfiles(catalog))
    .map((profile) => ({
      name: profile.name,
      endpointUri: `${root}/metadata/data/v3/profiles/${encodeURIComponent(profile.name)}/swagger.json`,
      prefix: 'Profiles',
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function profileDocumentRoute(
  catalog: ProfileCatalog,
  rootOf: (ctx: RequestContext) => string,
): RouteDefinition {
  return route.get('/metadata/data/v3/profiles/{profileName}/swagger.json', PUBLIC, async (ctx) => {
    const profile = await catalog.find(ctx.params.profileName);
    if (profile === undefined || profile.problems.length > 0)
      throw new ApiProblem('notFound', { raisedBeforeController: true });
    return sendTagged(ctx, tagJson(openApiDocument(profileOpenApiSection(profile), rootOf(ctx))));
  });
}
