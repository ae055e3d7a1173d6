// The admin API's profiles (contract §9.1): import an ODS profile XML document, list, export and delete, under
// `{base}/admin/profiles`, with the admin credential as HTTP Basic.
import { json, raw, route, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import type { ModelRegistry } from '../../model/index.js';
import {
  exportProfiles,
  importProfiles,
  listProfiles,
  ProfileDefinitionError,
  type ProfileCatalog,
} from '../../profiles/index.js';
import type { ProfileStore } from '../../store/store.js';

export interface ProfileRoutesOptions {
  readonly store: ProfileStore;
  readonly registry: ModelRegistry;
  /** Forgets its profiles after a change here, so this process applies the change at once. */
  readonly catalog: Pick<ProfileCatalog, 'invalidate'>;
}

const ADMIN = { auth: ['basic'] } as const;
const XML = 'application/xml; charset=utf-8';

function noProfileNamed(name: string): ApiProblem {
  return new ApiProblem('notFound', { errors: [`No profile is named '${name}'.`] });
}

export function profileRoutes(options: ProfileRoutesOptions): RouteDefinition[] {
  const { store, registry, catalog } = options;
  return [
    route.post('/admin/profiles', ADMIN, async (ctx) => {
      const xml = (await ctx.rawBody()).toString('utf8');
      try {
        const imported = await importProfiles(store, registry, xml);
        catalog.invalidate();
        return json(imported, { status: 201 });
      } catch (error) {
        if (error instanceof ProfileDefinitionError) throw new ApiProblem('badRequest', { errors: [error.message] });
        throw error;
      }
    }),
    route.get('/admin/profiles', ADMIN, () => listProfiles(store, registry)),
    route.get('/admin/profiles/{name}', ADMIN, async (ctx) => {
      const { xml, missing } = await exportProfiles(store, [ctx.params.name]);
      if (missing.length > 0) throw noProfileNamed(ctx.params.name);
      return raw(xml, { status: 200, headers: { 'Content-Type': XML } });
    }),
    route.delete('/admin/profiles/{name}', ADMIN, async (ctx) => {
      if (!(await store.deleteProfile(ctx.params.name))) throw noProfileNamed(ctx.params.name);
      catalog.invalidate();
      return raw(undefined, { status: 204 });
    }),
  ];
}
