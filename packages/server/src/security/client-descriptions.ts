// Clients as administration shows them (CLI and admin API): never the secret; a client without an application shows
// the sandbox grants it is treated with, and no vendor or application.
import type { ApplicationDefinition, ClientDetails, ClientAdministration } from '../store/store.js';
import { grantOf } from './client-grants.js';

export interface ClientDescription {
  readonly key: string;
  readonly name: string;
  readonly vendor: string | null;
  readonly application: string | null;
  readonly claimSet: string;
  readonly educationOrganizationIds: readonly number[];
  readonly namespacePrefixes: readonly string[];
  readonly profiles: readonly string[];
}

export interface ClientSummary extends ClientDescription {
  readonly active: boolean;
  /** Unexpired access tokens. */
  readonly liveTokens: number;
  readonly createdAt: string;
  /** The ownership token its documents are stamped with; null for a client without an application or a token. */
  readonly ownershipToken: string | null;
  /** Further ownership tokens whose documents it may access. */
  readonly accessOwnershipTokens: readonly string[];
}

export function describeClient(
  key: string,
  name: string,
  application: ApplicationDefinition | undefined,
): ClientDescription {
  const grant = application ?? grantOf(undefined);
  return {
    key,
    name,
    vendor: application?.vendorName ?? null,
    application: application?.applicationName ?? null,
    claimSet: grant.claimSetName,
    educationOrganizationIds: grant.educationOrganizationIds,
    namespacePrefixes: grant.namespacePrefixes,
    profiles: grant.profileNames,
  };
}

function summaryOf({ client, application, liveTokens, ownershipTokens }: ClientDetails): ClientSummary {
  return {
    ...describeClient(client.key, client.name, application),
    active: client.active,
    liveTokens,
    createdAt: client.createdAt,
    ownershipToken: ownershipTokens.creator,
    accessOwnershipTokens: ownershipTokens.accessible,
  };
}

/** Every client, by key. */
export async function listClients(
  store: Pick<ClientAdministration, 'listClientDetails'>,
  now: number = Date.now(),
): Promise<ClientSummary[]> {
  return (await store.listClientDetails(now)).map(summaryOf);
}
