// The data operations' `authorize` seam over the claim sets (contract §8.5): the claim check, then the strategies as
// a store filter for reads of many items and as a check of single items.
import type { Authorization, Authorize } from '../../api/authorization.js';
import type { Caller } from '../../api/caller.js';
import type { AuthorizationProbes } from '../../store/store.js';
import { authorizeClaims } from '../claims/index.js';
import { noNamespacePrefixes } from './data-denials.js';
import { authorizeItem, type ItemPolicy, type NamedRule } from './item-authorization.js';
import { strategyEffectOf } from './strategies.js';

/** The tokens whose documents the caller may access: the one it creates under, and any others it was given. */
function accessibleOwnershipTokens(caller: Caller): readonly number[] {
  return caller.accessibleOwnershipTokenIds ?? [caller.ownershipTokenId];
}

const UNRESTRICTED: Authorization = { filter: undefined, authorizeItem: async () => undefined };

export interface AuthorizerOptions {
  /** The ODS `OwnershipBasedAuthorization` feature: off by default, and OwnershipBased strategies are then ignored. */
  readonly ownershipBasedAuthorization?: boolean;
}

export function createAuthorizer(store: AuthorizationProbes, options: AuthorizerOptions = {}): Authorize {
  return ({ action, resource, caller }) => {
    const rules: NamedRule[] = [];
    let namespaceStrategy: string | undefined;
    let ownershipTokenIds: readonly number[] | undefined;
    for (const strategy of authorizeClaims(caller, resource, action)) {
      const effect = strategyEffectOf(strategy);
      if (effect.kind === 'relationship') rules.push({ strategy, rule: effect.rule });
      if (effect.kind === 'namespace') namespaceStrategy = strategy;
      if (effect.kind === 'ownership' && options.ownershipBasedAuthorization === true)
        ownershipTokenIds = accessibleOwnershipTokens(caller);
    }
    if (rules.length === 0 && namespaceStrategy === undefined && ownershipTokenIds === undefined) return UNRESTRICTED;
    if (namespaceStrategy !== undefined && caller.namespacePrefixes.length === 0)
      throw noNamespacePrefixes(namespaceStrategy);
    const policy: ItemPolicy = {
      educationOrganizationIds: caller.educationOrganizationIds,
      rules,
      ...(namespaceStrategy === undefined
        ? {}
        : { namespaces: { strategy: namespaceStrategy, prefixes: caller.namespacePrefixes } }),
      ...(ownershipTokenIds === undefined ? {} : { ownershipTokenIds }),
    };
    return {
      filter: {
        educationOrganizationIds: caller.educationOrganizationIds,
        relationships: rules.map(({ rule }) => rule),
        ...(namespaceStrategy === undefined ? {} : { namespacePrefixes: caller.namespacePrefixes }),
        ...(ownershipTokenIds === undefined ? {} : { ownershipTokenIds }),
      },
      authorizeItem: (item, phase) => authorizeItem(store, policy, item, phase),
    };
  };
}
