// Public surface of claim sets: compiled policies per claim set, the claim check and the ODS spellings of names and URIs.
export { authorizeClaims } from './authorize-claims.js';
export {
  claimSetCatalogue,
  claimSetPolicy,
  UnknownClaimSetError,
  type ClaimSetCatalogue,
} from './claim-set-catalogue.js';
export type { ClaimCheck, ClaimedResource, ClaimSetPolicy } from './claim-set-policy.js';
export { actionUri, claimUriSpellings, odsClaimUri } from './claim-uris.js';
export { claimSetNameKey } from './claim-set-names.js';
