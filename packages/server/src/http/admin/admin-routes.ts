// The admin API (off unless an admin credential is configured): create, list and revoke API clients under
// `{base}/admin/clients`, authenticated with the admin credential as HTTP Basic.
import { json, raw, route, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import {
  ClientCreationError,
  createClient,
  DuplicateClientError,
  listClients,
  type AccessTokenVerifier,
  type CreatedClient,
} from '../../security/index.js';
import type { Store } from '../../store/store.js';
import { newClientOptionsOf } from './new-client-body.js';

export interface AdminRoutesOptions {
  readonly store: Store;
  /** Told about revocations, so the revoked client's cached tokens stop working at once in this process. */
  readonly verifier: Pick<AccessTokenVerifier, 'forgetClient'>;
}

const ADMIN = { auth: ['basic'] } as const;

function creationProblem(error: ClientCreationError): ApiProblem {
  return new ApiProblem(error instanceof DuplicateClientError ? 'nonUniqueIdentity' : 'badRequest', {
    errors: [error.message],
  });
}

export function adminRoutes(options: AdminRoutesOptions): RouteDefinition[] {
  const { store, verifier } = options;

  async function create(body: unknown): Promise<CreatedClient> {
    try {
      return await createClient(store, newClientOptionsOf(body));
    } catch (error) {
      throw error instanceof ClientCreationError ? creationProblem(error) : error;
    }
  }

  return [
    route.post('/admin/clients', ADMIN, async (ctx) => json(await create(await ctx.body()), { status: 201 })),
    route.get('/admin/clients', ADMIN, () => listClients(store)),
    route.delete('/admin/clients/{key}', ADMIN, async (ctx) => {
      const revokedTokens = await store.revokeClient(ctx.params.key);
      if (revokedTokens === undefined) throw new ApiProblem('notFound', { errors: ['No client has this key.'] });
      verifier.forgetClient(ctx.params.key);
      return raw(undefined, { status: 204 });
    }),
  ];
}
