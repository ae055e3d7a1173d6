// One claim set compiled against the claims hierarchy: per resource claim and action, granted or not and the
// authorization strategies that apply (contract §8.2), each claim resolved once on first use.
import type { ApiProblem } from '../../api/problems.js';
import type { ClaimAction, ClaimNode, ClaimSetGrant } from '../../model/index.js';
import { actionDenied, resourceDenied } from './claim-denials.js';
import type { ClaimHierarchy, ClaimLineage } from './claim-hierarchy.js';
import { odsClaimUri } from './claim-uris.js';

/** Anything authorized through a resource claim: a model resource, or a service claim given by URI. */
export interface ClaimedResource {
  readonly resourceClaim: string;
}

export type ClaimCheck =
  | { readonly granted: true; readonly strategies: readonly string[] }
  | { readonly granted: false; readonly problem: ApiProblem };

export interface ClaimSetPolicy {
  /** The claim set's name as the ODS spells it, e.g. `SIS Vendor`. */
  readonly name: string;
  /** Whether the action is granted on the resource and with which strategies, or the 403 problem to answer. */
  check(resource: ClaimedResource, action: ClaimAction): ClaimCheck;
  /** The granted actions on the resource, in the order of the claims file. */
  grantedActions(resource: ClaimedResource): readonly ClaimAction[];
}

interface CompiledClaim {
  /** The lineage in the ODS's URI form, for denial messages. */
  readonly lineage: readonly string[];
  readonly hasGrant: boolean;
  /** Granted actions only. */
  readonly strategies: ReadonlyMap<ClaimAction, readonly string[]>;
}

function firstNonEmpty(lists: readonly (readonly string[] | undefined)[]): readonly string[] | undefined {
  return lists.find((list) => list !== undefined && list.length > 0);
}

/**
 * A grant anywhere in the lineage covers the resource. Strategies: the most specific claim-set override of the action,
 * else the most specific default; the claims file defines one for every granted action.
 */
function compileClaim(lineage: ClaimLineage, grantOn: GrantLookup, actions: readonly ClaimAction[]): CompiledClaim {
  const grants = lineage.map(grantOn).filter((grant): grant is ClaimSetGrant => !!grant);
  const strategies = new Map<ClaimAction, readonly string[]>();
  for (const action of actions) {
    if (!grants.some((grant) => grant[action] !== undefined)) continue;
    const override = firstNonEmpty(grants.map((grant) => grant[action]));
    const fallback = firstNonEmpty(lineage.map((node) => node.defaultAuthorization?.[action]));
    strategies.set(action, override ?? fallback ?? []);
  }
  return { lineage: lineage.map((node) => odsClaimUri(node.name)), hasGrant: grants.length > 0, strategies };
}

/** The claim set's grant on one claim of the hierarchy, if any. */
export type GrantLookup = (node: ClaimNode) => ClaimSetGrant | undefined;

/** A shipped claim set's grants are in the claims file; an imported one brings its own (`grantOn`). */
export function compileClaimSetPolicy(
  hierarchy: ClaimHierarchy,
  name: string,
  actions: readonly ClaimAction[],
  grantOn: GrantLookup = (node) => node.claimSets?.[name],
): ClaimSetPolicy {
  const compiled = new Map<string, CompiledClaim>();

  function claimOf(resource: ClaimedResource): CompiledClaim {
    let claim = compiled.get(resource.resourceClaim);
    if (claim === undefined) {
      claim = compileClaim(hierarchy.lineageOf(resource.resourceClaim), grantOn, actions);
      compiled.set(resource.resourceClaim, claim);
    }
    return claim;
  }

  return {
    name,
    check(resource, action) {
      const claim = claimOf(resource);
      const strategies = claim.strategies.get(action);
      if (strategies !== undefined) return { granted: true, strategies };
      const problem = claim.hasGrant ? actionDenied(name, action, claim.lineage) : resourceDenied(name, claim.lineage);
      return { granted: false, problem };
    },
    grantedActions: (resource) => [...claimOf(resource).strategies.keys()],
  };
}
