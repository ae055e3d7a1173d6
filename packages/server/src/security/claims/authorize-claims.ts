// The resource-and-action step of authorization, ready for the data operations' `authorize` seam.
import type { Caller } from '../../api/caller.js';
import type { ClaimAction } from '../../model/index.js';
import { claimSetCatalogue } from './claim-set-catalogue.js';
import type { ClaimedResource } from './claim-set-policy.js';

/**
 * Throws the 403 ApiProblem (`access-denied:resource` or `:action`) when the claim set does not grant the action on the
 * resource; otherwise returns the authorization strategies the data must then satisfy (contract §8.4).
 */
export function authorizeClaims(
  caller: Pick<Caller, 'claimSetName' | 'claimSet'>,
  resource: ClaimedResource,
  action: ClaimAction,
): readonly string[] {
  const outcome = claimSetCatalogue().callerPolicy(caller).check(resource, action);
  if (!outcome.granted) throw outcome.problem;
  return outcome.strategies;
}
