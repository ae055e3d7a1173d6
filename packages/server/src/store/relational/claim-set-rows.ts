// Imported claim sets as every SQL store keeps them: one row per claim set, its grants as JSON text.
import type { ClaimSetDefinition } from '../store.js';

export interface ClaimSetRow {
  readonly name: string;
  readonly resource_claims: string;
}

export const CLAIM_SET_COLUMNS = 'name, resource_claims';

export function toClaimSet(row: ClaimSetRow): ClaimSetDefinition {
  return { name: row.name, resourceClaims: JSON.parse(row.resource_claims) as ClaimSetDefinition['resourceClaims'] };
}

export function claimSetValues(claimSet: ClaimSetDefinition): [string, string] {
  return [claimSet.name, JSON.stringify(claimSet.resourceClaims)];
}
