// Who calls the API: what authorization decides on (contract §8.1). The security layer establishes it from an access
// token; the server's own writes (first-start seeding, direct loads) use SYSTEM_CALLER.
import type { ClaimSetDefinition } from '../store/store.js';

export interface Caller {
  /** The client key. */
  readonly clientId: string;
  readonly claimSetName: string;
  /** The definition of an imported claim set, read with the token; absent for the shipped claim sets. */
  readonly claimSet?: ClaimSetDefinition;
  /** The application's education organizations, or only the one a scoped token was narrowed to. */
  readonly educationOrganizationIds: readonly number[];
  readonly namespacePrefixes: readonly string[];
  /** The token documents the caller creates are stamped with (0: none). */
  readonly ownershipTokenId: number;
  /** The tokens whose documents OwnershipBased lets the caller access; default only `ownershipTokenId`. */
  readonly accessibleOwnershipTokenIds?: readonly number[];
  readonly profileNames: readonly string[];
}

/** The server itself (first-start seeding, direct loads), which only ever runs with `allowEveryAction`. */
export const SYSTEM_CALLER: Caller = {
  clientId: 'system',
  claimSetName: '',
  educationOrganizationIds: [],
  namespacePrefixes: [],
  ownershipTokenId: 0,
  profileNames: [],
};
