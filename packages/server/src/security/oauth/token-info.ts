// The token_info body (contract §2.6): the caller's client, namespaces, education organizations, profiles, claim set,
// and what the claim set grants on every resource and service, in the ODS's property order.
import type { ClaimAction, ModelRegistry } from '../../model/index.js';
import type { Caller } from '../../api/caller.js';
import { claimSetCatalogue, type ClaimSetPolicy } from '../claims/index.js';
import type { EducationOrganizationDirectory, EducationOrganizationInfo } from './education-organization-info.js';

export interface TokenInfo {
  readonly active: true;
  readonly client_id: string;
  readonly namespace_prefixes: readonly string[];
  readonly education_organizations: readonly EducationOrganizationInfo[];
  readonly assigned_profiles: readonly string[];
  readonly claim_set: { readonly name: string };
  readonly resources: readonly { readonly resource: string; readonly operations: readonly ClaimAction[] }[];
  readonly services: readonly { readonly service: string; readonly operations: readonly ClaimAction[] }[];
}

const SERVICE_CLAIM_PREFIX = 'http://ed-fi.org/identity/claims/services/';

function resourcesOf(policy: ClaimSetPolicy, registry: ModelRegistry): TokenInfo['resources'] {
  return registry.allResources
    .map((resource) => ({
      resource: `/${resource.namespace}/${resource.endpoint}`,
      operations: policy.grantedActions(resource),
    }))
    .filter(({ operations }) => operations.length > 0);
}

function servicesOf(policy: ClaimSetPolicy, claimUris: Iterable<string>): TokenInfo['services'] {
  return [...claimUris]
    .filter((uri) => uri.startsWith(SERVICE_CLAIM_PREFIX))
    .map((uri) => ({
      service: uri.slice(SERVICE_CLAIM_PREFIX.length),
      operations: policy.grantedActions({ resourceClaim: uri }),
    }))
    .filter(({ operations }) => operations.length > 0);
}

export async function tokenInfoOf(
  caller: Caller,
  registry: ModelRegistry,
  educationOrganizations: EducationOrganizationDirectory,
): Promise<TokenInfo> {
  const catalogue = claimSetCatalogue(registry.claims);
  const policy = catalogue.callerPolicy(caller);
  return {
    active: true,
    client_id: caller.clientId,
    namespace_prefixes: caller.namespacePrefixes,
    education_organizations: await educationOrganizations.describe(caller.educationOrganizationIds),
    assigned_profiles: caller.profileNames,
    claim_set: { name: policy.name },
    resources: resourcesOf(policy, registry),
    services: servicesOf(policy, catalogue.hierarchy.claimUris),
  };
}
