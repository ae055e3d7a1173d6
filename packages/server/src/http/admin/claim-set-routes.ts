// The admin API's claim sets under `{base}/admin/claimSets`: list, export one (our JSON), import (our JSON, all or
// none), delete an imported one no application holds.
import { json, raw, route, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import {
  ClaimSetAdministrationError,
  ClaimSetImportError,
  deleteImportedClaimSet,
  exportClaimSets,
  importClaimSetsJson,
  listAllClaimSets,
  type ClaimSetStore,
} from '../../security/index.js';

const ADMIN = { auth: ['basic'] } as const;

const PROBLEMS = { unknown: 'notFound', shipped: 'badRequest', 'in-use': 'dependentItemExists' } as const;

async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ClaimSetImportError) throw new ApiProblem('badRequest', { errors: error.reasons });
    if (error instanceof ClaimSetAdministrationError)
      throw new ApiProblem(PROBLEMS[error.kind], { errors: [error.message] });
    throw error;
  }
}

export function claimSetRoutes(store: ClaimSetStore): RouteDefinition[] {
  return [
    route.get('/admin/claimSets', ADMIN, () => listAllClaimSets(store)),
    route.get('/admin/claimSets/{name}', ADMIN, (ctx) =>
      answering(async () => (await exportClaimSets(store, [ctx.params.name]))[0]!),
    ),
    route.post('/admin/claimSets', ADMIN, async (ctx) => {
      const body = await ctx.body();
      const imported = await answering(() => importClaimSetsJson(store, body));
      return json({ imported: imported.map(({ name }) => name) }, { status: 201 });
    }),
    route.delete('/admin/claimSets/{name}', ADMIN, async (ctx) => {
      await answering(() => deleteImportedClaimSet(store, ctx.params.name));
      return raw(undefined, { status: 204 });
    }),
  ];
}
