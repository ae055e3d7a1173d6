// What a client may do, from its application; and the sandbox application, which the first-start client gets and which
// clients from before applications (no application in the store) are treated as belonging to.
import type { ApplicationDefinition, ClientApplication } from '../store/store.js';

export const SANDBOX_CLAIM_SET = 'Ed-Fi Sandbox';

/** The namespaces of the default descriptors and of the Ed-Fi sample data (Grand Bend ISD, TPDM). */
export const SANDBOX_NAMESPACE_PREFIXES: readonly string[] = [
  'uri://ed-fi.org',
  'uri://gbisd.edu',
  'uri://tpdm.ed-fi.org',
];

/** Grand Bend ISD, the district of the sample data: the ODS's populated sandbox is associated with it too. */
export const SANDBOX_EDUCATION_ORGANIZATION_IDS: readonly number[] = [255901];

export const SANDBOX_APPLICATION: ApplicationDefinition = {
  vendorName: 'Sandbox',
  namespacePrefixes: SANDBOX_NAMESPACE_PREFIXES,
  applicationName: 'Sandbox',
  claimSetName: SANDBOX_CLAIM_SET,
  educationOrganizationIds: SANDBOX_EDUCATION_ORGANIZATION_IDS,
  profileNames: [],
};

export interface ClientGrant {
  readonly claimSetName: string;
  readonly educationOrganizationIds: readonly number[];
  readonly namespacePrefixes: readonly string[];
  readonly profileNames: readonly string[];
}

export function grantOf(application: ClientApplication | undefined): ClientGrant {
  return application ?? SANDBOX_APPLICATION;
}
