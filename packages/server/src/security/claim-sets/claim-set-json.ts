// Our JSON form of claim sets, the one `claim-sets export` writes and the admin API takes:
// `{ "claimSets": [{ "name", "resourceClaims": [{ "name", "actions": [{ "name", "authorizationStrategyOverrides"? }] }] }] }`.
import {
  ClaimSetImportError,
  type DraftAction,
  type DraftClaimSet,
  type DraftImport,
  type DraftResourceClaim,
} from './claim-set-drafts.js';

type Reasons = string[];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nameAt(value: Record<string, unknown>, path: string, reasons: Reasons): string | undefined {
  if (typeof value.name === 'string' && value.name.trim() !== '') return value.name;
  reasons.push(`${path}.name must be a non-blank string.`);
  return undefined;
}

function listAt(value: unknown, path: string, reasons: Reasons): unknown[] {
  if (Array.isArray(value)) return value;
  reasons.push(`${path} must be an array.`);
  return [];
}

function objectsAt<T>(
  value: unknown,
  path: string,
  reasons: Reasons,
  read: (item: Record<string, unknown>, at: string) => T | undefined,
): T[] {
  return listAt(value, path, reasons).flatMap((item, index) => {
    const at = `${path}[${index}]`;
    if (!isObject(item)) {
      reasons.push(`${at} must be an object.`);
      return [];
    }
    return read(item, at) ?? [];
  });
}

function actionAt(action: Record<string, unknown>, path: string, reasons: Reasons): DraftAction | undefined {
  const name = nameAt(action, path, reasons);
  const overrides = listAt(
    action.authorizationStrategyOverrides ?? [],
    `${path}.authorizationStrategyOverrides`,
    reasons,
  );
  const strategies = overrides.filter((strategy): strategy is string => typeof strategy === 'string');
  if (strategies.length !== overrides.length) {
    reasons.push(`${path}.authorizationStrategyOverrides must list strategy names (strings).`);
  }
  return name === undefined ? undefined : { name, authorizationStrategyOverrides: strategies };
}

function resourceClaimAt(
  claim: Record<string, unknown>,
  path: string,
  reasons: Reasons,
): DraftResourceClaim | undefined {
  const name = nameAt(claim, path, reasons);
  const actions = objectsAt(claim.actions, `${path}.actions`, reasons, (action, at) => actionAt(action, at, reasons));
  return name === undefined ? undefined : { name, actions };
}

function claimSetAt(claimSet: Record<string, unknown>, path: string, reasons: Reasons): DraftClaimSet | undefined {
  const name = nameAt(claimSet, path, reasons);
  const resourceClaims = objectsAt(claimSet.resourceClaims, `${path}.resourceClaims`, reasons, (claim, at) =>
    resourceClaimAt(claim, at, reasons),
  );
  return name === undefined ? undefined : { name, resourceClaims };
}

/** Reads a parsed JSON value; throws ClaimSetImportError listing every misshapen member. */
export function claimSetsOfJson(value: unknown): DraftClaimSet[] {
  const reasons: Reasons = [];
  if (!isObject(value)) throw new ClaimSetImportError(['The JSON must be an object with a "claimSets" array.']);
  const claimSets = objectsAt(value.claimSets, 'claimSets', reasons, (claimSet, at) =>
    claimSetAt(claimSet, at, reasons),
  );
  if (reasons.length > 0) throw new ClaimSetImportError(reasons);
  return claimSets;
}

export function readClaimSetJson(text: string): DraftImport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ClaimSetImportError([`The file is not valid JSON: ${(error as Error).message}`]);
  }
  return { claimSets: claimSetsOfJson(value), defaultAuthorizations: [] };
}
