// Drafts checked against the model's claims file: each claim set named apart from the shipped ones, every resource
// claim known (in any ODS spelling), every action and strategy one the claims file has. All reasons are gathered so
// one import run reports everything wrong with the file.
import { getModelRegistry, type ClaimAction, type ClaimSetGrant, type ClaimsFile } from '../../model/index.js';
import type { ClaimSetDefinition } from '../../store/store.js';
import { claimSetCatalogue, claimSetNameKey, claimUriSpellings } from '../claims/index.js';
import { ClaimSetImportError, type DraftClaimSet, type DraftImport } from './claim-set-drafts.js';

interface Model {
  readonly claims: ClaimsFile;
  /** By every spelling of a claim URI, and lower-cased: the claims file's URI. */
  readonly claimUris: ReadonlyMap<string, string>;
}

const models = new WeakMap<ClaimsFile, Model>();

function modelOf(claims: ClaimsFile): Model {
  let model = models.get(claims);
  if (model === undefined) {
    const claimUris = new Map<string, string>();
    for (const uri of claimSetCatalogue(claims).hierarchy.claimUris) {
      for (const spelling of claimUriSpellings(uri)) {
        claimUris.set(spelling, uri);
        claimUris.set(spelling.toLowerCase(), uri);
      }
    }
    model = { claims, claimUris };
    models.set(claims, model);
  }
  return model;
}

function checkName(
  draft: DraftClaimSet,
  model: Model,
  existing: readonly ClaimSetDefinition[],
  reasons: string[],
): void {
  const shipped = claimSetCatalogue(model.claims).resolve(draft.name);
  if (shipped !== undefined) {
    reasons.push(
      `Claim set '${draft.name}' is the shipped claim set '${shipped}', which cannot be changed; import the claim set ` +
        'under a name of your own.',
    );
  }
  const key = claimSetNameKey(draft.name);
  const clash = existing.find(({ name }) => name !== draft.name && claimSetNameKey(name) === key);
  if (clash !== undefined) {
    reasons.push(`Claim set '${draft.name}' would be confused with the claim set '${clash.name}'; use one spelling.`);
  }
}

function sameStrategies(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((strategy) => b.includes(strategy));
}

function grantsOf(draft: DraftClaimSet, model: Model, reasons: string[]): Record<string, ClaimSetGrant> {
  const { actions, authorizationStrategies } = model.claims;
  const grants: Record<string, ClaimSetGrant> = {};
  for (const claim of draft.resourceClaims) {
    const uri = model.claimUris.get(claim.name) ?? model.claimUris.get(claim.name.toLowerCase());
    if (uri === undefined) {
      reasons.push(`Claim set '${draft.name}': '${claim.name}' is not a resource claim of the model.`);
      continue;
    }
    const grant: ClaimSetGrant = (grants[uri] ??= {});
    for (const action of claim.actions) {
      if (!actions.includes(action.name as ClaimAction)) {
        reasons.push(
          `Claim set '${draft.name}', claim '${claim.name}': '${action.name}' is not an action (${actions.join(', ')}).`,
        );
        continue;
      }
      const earlier = grant[action.name as ClaimAction];
      if (earlier !== undefined) {
        // A file may list a claim twice (once more beneath another parent, as ODS scripts do): the same grant again.
        if (!sameStrategies(earlier, action.authorizationStrategyOverrides)) {
          reasons.push(
            `Claim set '${draft.name}', claim '${claim.name}': the action '${action.name}' is given twice with ` +
              'different strategy overrides.',
          );
        }
        continue;
      }
      for (const strategy of action.authorizationStrategyOverrides) {
        if (!authorizationStrategies.includes(strategy)) {
          reasons.push(
            `Claim set '${draft.name}', claim '${claim.name}', action '${action.name}': '${strategy}' is not an ` +
              `authorization strategy (${authorizationStrategies.join(', ')}).`,
          );
        }
      }
      grant[action.name as ClaimAction] = [...action.authorizationStrategyOverrides];
    }
  }
  return grants;
}

/** Restated defaults are accepted when they are the model's: an import cannot change what other claim sets get. */
function checkDefaults(draft: DraftImport, model: Model, reasons: string[]): void {
  const { hierarchy } = claimSetCatalogue(model.claims);
  for (const { claim, action, strategies } of draft.defaultAuthorizations) {
    const uri = model.claimUris.get(claim) ?? model.claimUris.get(claim.toLowerCase());
    if (uri === undefined) {
      reasons.push(`Default authorization: '${claim}' is not a resource claim of the model.`);
      continue;
    }
    const current = hierarchy.lineageOf(uri)[0]!.defaultAuthorization?.[action as ClaimAction] ?? [];
    if (!sameStrategies(current, strategies)) {
      reasons.push(
        `Default authorization of '${claim}' for '${action}' (${strategies.join(', ') || 'none'}) differs from the ` +
          `model's (${current.join(', ') || 'none'}); an import defines claim sets only (use ` +
          'AuthorizationStrategyOverrides).',
      );
    }
  }
}

/**
 * The drafts as they will be stored; throws ClaimSetImportError with every reason when any is invalid. `existing`
 * are the imported claim sets already in the store (a name may be imported again to replace its claim set).
 */
export function validateClaimSets(
  draft: DraftImport,
  existing: readonly ClaimSetDefinition[],
  claims: ClaimsFile = getModelRegistry().claims,
): ClaimSetDefinition[] {
  const model = modelOf(claims);
  const reasons: string[] = [];
  checkDefaults(draft, model, reasons);
  const drafts: readonly DraftClaimSet[] = draft.claimSets;
  if (drafts.length === 0) reasons.push('The file defines no claim sets.');
  const seen = new Map<string, string>();
  const definitions = drafts.map((draft) => {
    const earlier = seen.get(claimSetNameKey(draft.name));
    if (earlier !== undefined) reasons.push(`Claim set '${draft.name}' is defined twice (also as '${earlier}').`);
    seen.set(claimSetNameKey(draft.name), draft.name);
    checkName(draft, model, existing, reasons);
    return { name: draft.name, resourceClaims: grantsOf(draft, model, reasons) };
  });
  if (reasons.length > 0) throw new ClaimSetImportError(reasons);
  return definitions;
}
