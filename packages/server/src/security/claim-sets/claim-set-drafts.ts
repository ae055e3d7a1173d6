// Claim sets as an import file spells them, before they are checked against the model: claim URIs in any of the ODS's
// spellings, action and strategy names as given.

export interface DraftAction {
  readonly name: string;
  /** Authorization strategy names; empty for the claim's defaults. */
  readonly authorizationStrategyOverrides: readonly string[];
}

export interface DraftResourceClaim {
  readonly name: string;
  readonly actions: readonly DraftAction[];
}

export interface DraftClaimSet {
  readonly name: string;
  readonly resourceClaims: readonly DraftResourceClaim[];
}

/** A claim's default strategies for an action as a file restates them (the ODS scripts do); checked, not stored. */
export interface DraftDefaultAuthorization {
  readonly claim: string;
  readonly action: string;
  readonly strategies: readonly string[];
}

/** What an import file holds. */
export interface DraftImport {
  readonly claimSets: readonly DraftClaimSet[];
  readonly defaultAuthorizations: readonly DraftDefaultAuthorization[];
}

/** An import file that cannot be taken as it is, with every reason found. */
export class ClaimSetImportError extends Error {
  override readonly name = 'ClaimSetImportError';

  constructor(readonly reasons: readonly string[]) {
    super(`The claim sets were not imported:\n${reasons.map((reason) => `- ${reason}`).join('\n')}`);
  }
}
