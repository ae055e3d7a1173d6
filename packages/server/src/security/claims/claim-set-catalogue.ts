// Every claim set of the claims file, found by either spelling of its name and compiled on first use.
import type { Caller } from '../../api/caller.js';
import { getModelRegistry, type ClaimsFile } from '../../model/index.js';
import type { ClaimSetDefinition } from '../../store/store.js';
import { ClaimHierarchy } from './claim-hierarchy.js';
import { claimSetNameKey } from './claim-set-names.js';
import { compileClaimSetPolicy, type ClaimSetPolicy } from './claim-set-policy.js';

export class UnknownClaimSetError extends Error {
  override readonly name = 'UnknownClaimSetError';

  constructor(
    claimSetName: string,
    readonly validNames: readonly string[],
  ) {
    super(`Unknown claim set '${claimSetName}'. Valid claim sets: ${validNames.join(', ')}.`);
  }
}

export interface ClaimSetCatalogue {
  /** The ODS names of all claim sets, sorted. */
  readonly names: readonly string[];
  readonly hierarchy: ClaimHierarchy;
  /** The ODS name of the claim set that `name` spells (either form, any case), or undefined. */
  resolve(name: string): string | undefined;
  /** Throws UnknownClaimSetError for a name no claim set has. */
  policy(name: string): ClaimSetPolicy;
  /**
   * The policy of the claim set a stored client holds: one the claims file no longer has (the ODS 7.3 dropped
   * `Ed-Fi ODS Admin App`, say) grants nothing, so its clients get 403s rather than errors.
   */
  clientPolicy(name: string): ClaimSetPolicy;
  /** The policy of an imported claim set, compiled once per definition object. */
  importedPolicy(definition: ClaimSetDefinition): ClaimSetPolicy;
  /** The caller's imported claim set when it has one, else the shipped one it names. */
  callerPolicy(caller: Pick<Caller, 'claimSetName' | 'claimSet'>): ClaimSetPolicy;
}

function createCatalogue(claims: ClaimsFile): ClaimSetCatalogue {
  const hierarchy = new ClaimHierarchy(claims);
  const nameByKey = new Map(claims.claimSets.map(({ name }) => [claimSetNameKey(name), name]));
  const names = claims.claimSets.map(({ name }) => name).sort();
  const policies = new Map<string, ClaimSetPolicy>();
  const importedPolicies = new WeakMap<ClaimSetDefinition, ClaimSetPolicy>();

  return {
    names,
    hierarchy,
    resolve: (name) => nameByKey.get(claimSetNameKey(name)),
    policy(name) {
      if (!nameByKey.has(claimSetNameKey(name))) throw new UnknownClaimSetError(name, names);
      return policyOf(name);
    },
    clientPolicy: policyOf,
    importedPolicy,
    callerPolicy: (caller) =>
      caller.claimSet === undefined ? policyOf(caller.claimSetName) : importedPolicy(caller.claimSet),
  };

  function importedPolicy(definition: ClaimSetDefinition): ClaimSetPolicy {
    let policy = importedPolicies.get(definition);
    if (policy === undefined) {
      const { name, resourceClaims } = definition;
      policy = compileClaimSetPolicy(hierarchy, name, claims.actions, (node) => resourceClaims[node.name]);
      importedPolicies.set(definition, policy);
    }
    return policy;
  }

  /** A name no claim set has compiles to a policy without grants. */
  function policyOf(name: string): ClaimSetPolicy {
    const key = claimSetNameKey(name);
    let policy = policies.get(key);
    if (policy === undefined) {
      policy = compileClaimSetPolicy(hierarchy, nameByKey.get(key) ?? name, claims.actions);
      policies.set(key, policy);
    }
    return policy;
  }
}

const catalogues = new WeakMap<ClaimsFile, ClaimSetCatalogue>();

/** The catalogue of a claims file, the committed model's by default; built once per file. */
export function claimSetCatalogue(claims: ClaimsFile = getModelRegistry().claims): ClaimSetCatalogue {
  let catalogue = catalogues.get(claims);
  if (catalogue === undefined) {
    catalogue = createCatalogue(claims);
    catalogues.set(claims, catalogue);
  }
  return catalogue;
}

/** The compiled policy of a claim set of the committed model; throws UnknownClaimSetError for an unknown name. */
export function claimSetPolicy(name: string, claims?: ClaimsFile): ClaimSetPolicy {
  return claimSetCatalogue(claims).policy(name);
}
