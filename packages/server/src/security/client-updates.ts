// `clients update`: a client's application gets another claim set or other education organizations. The verifier
// reads the application with each token it has not cached, so new tokens see the change at once and cached ones
// within the token cache TTL.
import type { ClaimSetAdministration, ClientAdministration } from '../store/store.js';
import { ClientCreationError, claimSetNamed, educationOrganizationIds } from './client-applications.js';
import { describeClient, type ClientDescription } from './client-descriptions.js';

export type ClientUpdateStore = Pick<ClientAdministration, 'findClient' | 'updateClientApplication'> &
  Pick<ClaimSetAdministration, 'listClaimSets'>;

export interface ClientChanges {
  /** Either spelling of a shipped or imported claim set's name. */
  readonly claimSet?: string;
  /** Replaces the application's education organizations. */
  readonly educationOrganizationIds?: readonly number[];
}

/** No client has the key given to update. */
export class UnknownClientError extends ClientCreationError {
  override readonly name = 'UnknownClientError';
}

/** Throws UnknownClientError for an unknown key, ClientCreationError a client without an application or invalid changes. */
export async function updateClient(
  store: ClientUpdateStore,
  key: string,
  changes: ClientChanges,
): Promise<ClientDescription> {
  if (changes.claimSet === undefined && changes.educationOrganizationIds === undefined) {
    throw new ClientCreationError('Nothing to change: give a claim set or education organizations.');
  }
  const client = await store.findClient(key);
  if (client === undefined) throw new UnknownClientError(`No client has the key '${key}'.`);
  const application = await store.updateClientApplication(key, {
    ...(changes.claimSet === undefined ? {} : { claimSetName: await claimSetNamed(store, changes.claimSet) }),
    ...(changes.educationOrganizationIds === undefined
      ? {}
      : { educationOrganizationIds: educationOrganizationIds(changes.educationOrganizationIds) }),
  });
  if (application === undefined) {
    throw new ClientCreationError(
      `The client '${key}' has no application (it was created before applications); create a new client instead.`,
    );
  }
  return describeClient(client.key, client.name, application);
}
