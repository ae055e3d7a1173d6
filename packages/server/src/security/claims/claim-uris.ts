// The URIs the ODS uses in its messages: resource claims under `http://ed-fi.org/ods/identity/claims/` (core resources
// in the legacy form without `ed-fi/`, contract §8.2) and actions under `http://ed-fi.org/odsapi/actions/`.
import type { ClaimAction } from '../../model/index.js';

const FILE_CLAIM_PREFIX = 'http://ed-fi.org/identity/claims/';
const ODS_CLAIM_PREFIX = 'http://ed-fi.org/ods/identity/claims/';
const CORE_SCHEMA_SEGMENT = 'ed-fi/';

/** `http://ed-fi.org/identity/claims/ed-fi/staff` → `http://ed-fi.org/ods/identity/claims/staff`. */
export function odsClaimUri(fileClaimUri: string): string {
  if (!fileClaimUri.startsWith(FILE_CLAIM_PREFIX)) return fileClaimUri;
  const rest = fileClaimUri.slice(FILE_CLAIM_PREFIX.length);
  return ODS_CLAIM_PREFIX + (rest.startsWith(CORE_SCHEMA_SEGMENT) ? rest.slice(CORE_SCHEMA_SEGMENT.length) : rest);
}

/**
 * Every spelling of a claim the ODS security metadata may use: the claims file's, the ODS legacy form of core
 * resources and the ODS schema-based form (`…/ods/identity/claims/ed-fi/staff`).
 */
export function claimUriSpellings(fileClaimUri: string): string[] {
  const schemaBased = fileClaimUri.startsWith(FILE_CLAIM_PREFIX)
    ? ODS_CLAIM_PREFIX + fileClaimUri.slice(FILE_CLAIM_PREFIX.length)
    : fileClaimUri;
  return [...new Set([fileClaimUri, odsClaimUri(fileClaimUri), schemaBased])];
}

/** `ReadChanges` → `http://ed-fi.org/odsapi/actions/readChanges`. */
export function actionUri(action: ClaimAction): string {
  return `http://ed-fi.org/odsapi/actions/${action.charAt(0).toLowerCase()}${action.slice(1)}`;
}
