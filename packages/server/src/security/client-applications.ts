// The application a new client joins: named by vendor and application (defaults: one of each, named after the client),
// created from the requested claim set, education organizations, namespaces and profiles, or joined when it exists —
// in which case anything requested must match what it already has.
import type { ApplicationDefinition, ClaimSetAdministration, ClientAdministration } from '../store/store.js';
import { resolveImportedClaimSet } from './claim-sets/index.js';
import { claimSetCatalogue } from './claims/index.js';
import { SANDBOX_CLAIM_SET } from './client-grants.js';

export type ApplicationStore = Pick<ClientAdministration, 'findApplication' | 'findVendorNamespacePrefixes'> &
  ClaimSetNames;

type ClaimSetNames = Pick<ClaimSetAdministration, 'listClaimSets'>;

export interface ApplicationOptions {
  /** Default: the application name. */
  readonly vendor?: string;
  /** Default: the client's name. */
  readonly application?: string;
  /**
   * Either spelling of a claim-set name, any case (`SIS Vendor`, `SISVendor`), shipped or imported; default
   * `Ed-Fi Sandbox`.
   */
  readonly claimSet?: string;
  readonly educationOrganizationIds?: readonly number[];
  readonly namespacePrefixes?: readonly string[];
  readonly profiles?: readonly string[];
}

export class ClientCreationError extends Error {
  override readonly name: string = 'ClientCreationError';
}

type Requested = Partial<Omit<ApplicationDefinition, 'vendorName' | 'applicationName'>>;

function nonBlank(value: string, what: string): string {
  if (value.trim() === '') throw new ClientCreationError(`The ${what} must not be blank.`);
  return value;
}

/** The stored name of a shipped or imported claim set; throws ClientCreationError listing them for another name. */
export async function claimSetNamed(store: ClaimSetNames, name: string): Promise<string> {
  const catalogue = claimSetCatalogue();
  const resolved = catalogue.resolve(name) ?? (await resolveImportedClaimSet(store, name));
  if (resolved === undefined) {
    const imported = (await store.listClaimSets()).map((claimSet) => claimSet.name);
    const valid = [...catalogue.names, ...imported].sort();
    throw new ClientCreationError(`Unknown claim set '${name}'. Valid claim sets: ${valid.join(', ')}.`);
  }
  return resolved;
}

export function educationOrganizationIds(ids: readonly number[]): number[] {
  for (const id of ids) {
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new ClientCreationError(`'${id}' is not an education organization id (a positive whole number).`);
    }
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

function names(values: readonly string[], what: string): string[] {
  return [...new Set(values.map((value) => nonBlank(value, what)))].sort();
}

async function requestedOf(store: ClaimSetNames, options: ApplicationOptions): Promise<Requested> {
  return {
    claimSetName: options.claimSet === undefined ? undefined : await claimSetNamed(store, options.claimSet),
    educationOrganizationIds:
      options.educationOrganizationIds && educationOrganizationIds(options.educationOrganizationIds),
    namespacePrefixes: options.namespacePrefixes && names(options.namespacePrefixes, 'namespace prefix'),
    profileNames: options.profiles && names(options.profiles, 'profile name'),
  };
}

const LABELS: Readonly<Record<keyof Requested, string>> = {
  claimSetName: 'claim set',
  educationOrganizationIds: 'education organizations',
  namespacePrefixes: 'namespace prefixes',
  profileNames: 'profiles',
};

/** Throws unless every requested value equals the existing one (both are kept sorted, so lists compare in order). */
function assertMatches(existing: Requested, requested: Requested, owner: string): void {
  for (const field of Object.keys(LABELS) as (keyof Requested)[]) {
    const wanted = requested[field];
    const current = existing[field];
    if (wanted === undefined || current === undefined || JSON.stringify(wanted) === JSON.stringify(current)) continue;
    const shown = [current].flat().join(', ') || 'none';
    throw new ClientCreationError(
      `The ${owner} already exists with other ${LABELS[field]} (${shown}); leave the ${LABELS[field]} out to add ` +
        'a client to it.',
    );
  }
}

export async function applicationFor(
  store: ApplicationStore,
  options: ApplicationOptions,
  clientName: string,
): Promise<ApplicationDefinition> {
  const applicationName = nonBlank(options.application ?? clientName, 'application name');
  const vendorName = nonBlank(options.vendor ?? applicationName, 'vendor name');
  const requested = await requestedOf(store, options);
  const existing = await store.findApplication(vendorName, applicationName);
  if (existing !== undefined) {
    assertMatches(existing, requested, `application '${applicationName}' of vendor '${vendorName}'`);
    return existing;
  }
  const vendorPrefixes = await store.findVendorNamespacePrefixes(vendorName);
  if (vendorPrefixes !== undefined) {
    assertMatches({ namespacePrefixes: vendorPrefixes }, requested, `vendor '${vendorName}'`);
  }
  return {
    vendorName,
    namespacePrefixes: vendorPrefixes ?? requested.namespacePrefixes ?? [],
    applicationName,
    claimSetName: requested.claimSetName ?? SANDBOX_CLAIM_SET,
    educationOrganizationIds: requested.educationOrganizationIds ?? [],
    profileNames: requested.profileNames ?? [],
  };
}
