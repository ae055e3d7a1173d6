// The admin API (off unless an admin credential is configured): create, list, update and revoke API clients under
// `{base}/admin/clients`, and the claim sets under `{base}/admin/claimSets`, authenticated with the admin credential
// as HTTP Basic.
import { json, raw, route, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import {
  ClientCreationError,
  createClient,
  DuplicateClientError,
  listClients,
  UnknownClientError,
  updateClient,
  type AccessTokenVerifier,
  type ClientDescription,
  type CreatedClient,
} from '../../security/index.js';
import type { Store } from '../../store/store.js';
import { claimSetRoutes } from './claim-set-routes.js';
import { clientChangesOf } from './client-changes-body.js';
import { newClientOptionsOf } from './new-client-body.js';

export interface AdminRoutesOptions {
  readonly store: Store;
  /** Told about revocations, so the revoked client's cached tokens stop working at once in this process. */
  readonly verifier: Pick<AccessTokenVerifier, 'forgetClient'>;
}

const ADMIN = { auth: ['basic'] } as const;

function creationProblem(error: ClientCreationError): ApiProblem {
  const problem =
    error instanceof DuplicateClientError
      ? 'nonUniqueIdentity'
      : error instanceof UnknownClientError
        ? 'notFound'
        : 'badRequest';
  return new ApiProblem(problem, { errors: [error.message] });
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

  /** The change reaches every client of the application, so each one's cached tokens are forgotten in this process. */
  async function update(key: string, body: unknown): Promise<ClientDescription> {
    try {
      const updated = await updateClient(store, key, clientChangesOf(body));
      for (const { client, application } of await store.listClientDetails(Date.now())) {
        const sameApplication =
          application?.vendorName === updated.vendor && application?.applicationName === updated.application;
        if (sameApplication) verifier.forgetClient(client.key);
      }
      return updated;
    } catch (error) {
      throw error instanceof ClientCreationError ? creationProblem(error) : error;
    }
  }

  return [
    ...claimSetRoutes(store),
    route.patch('/admin/clients/{key}', ADMIN, async (ctx) => update(ctx.params.key, await ctx.body())),
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
