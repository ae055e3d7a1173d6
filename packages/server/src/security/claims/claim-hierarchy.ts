// The claims hierarchy indexed by claim URI: every claim with its ancestors, most specific first (contract §8.2).
import type { ClaimNode, ClaimsFile } from '../../model/index.js';

/** A claim followed by its parent, grandparent… up to its domain. */
export type ClaimLineage = readonly ClaimNode[];

export class ClaimHierarchy {
  readonly #lineages = new Map<string, ClaimLineage>();

  constructor(claims: ClaimsFile) {
    for (const root of claims.hierarchy) this.#index(root, []);
  }

  /** Every claim URI of the hierarchy, parents before their children. */
  get claimUris(): Iterable<string> {
    return this.#lineages.keys();
  }

  /** A claim missing from the hierarchy stands alone and is granted to no claim set. */
  lineageOf(claimUri: string): ClaimLineage {
    return this.#lineages.get(claimUri) ?? [{ name: claimUri }];
  }

  #index(node: ClaimNode, ancestors: ClaimLineage): void {
    const lineage = [node, ...ancestors];
    this.#lineages.set(node.name, lineage);
    for (const child of node.children ?? []) this.#index(child, lineage);
  }
}
