// Builds the claims file from the replayed ODS security tables, keeping from the current (DMS) claims file what the
// ODS scripts do not ship: the TPDM claims, and the E2E claim sets as extra named sets.
import type { ActionStrategies, ClaimNode, ClaimsFile } from '../../src/model/types.js';
import { MODEL_FORMAT_VERSION } from '../../src/model/types.js';
import { claimSetNameKey } from '../../src/security/claims/claim-set-names.js';
import { ACTIONS, toAction } from './claims.js';
import type { OdsActionStrategy, OdsSecurityTables } from './ods-security.js';
import { compareText, sortedText } from '../../src/model/import/ordering.js';

const ODS_CLAIM_PREFIX = 'http://ed-fi.org/ods/identity/claims/';
const FILE_CLAIM_PREFIX = 'http://ed-fi.org/identity/claims/';
/** ODS claim paths kept as they are in the file's form; the other (legacy) core resource claims gain `ed-fi/`. */
const KEPT_PATHS = ['domains/', 'services/', 'publishing/', 'tpdm/', 'ed-fi/'];
const E2E_PREFIX = 'E2E-';

/** `…/ods/identity/claims/staff` → `…/identity/claims/ed-fi/staff`; domains keep their path; other URIs stay. */
export function fileClaimUri(odsUri: string): string {
  if (!odsUri.startsWith(ODS_CLAIM_PREFIX)) return odsUri;
  const rest = odsUri.slice(ODS_CLAIM_PREFIX.length);
  return FILE_CLAIM_PREFIX + (KEPT_PATHS.some((path) => rest.startsWith(path)) ? rest : `ed-fi/${rest}`);
}

const isTpdmClaim = (name: string) =>
  name.startsWith(`${FILE_CLAIM_PREFIX}tpdm/`) || name.startsWith(`${FILE_CLAIM_PREFIX}domains/tpdm`);
const isE2e = (claimSet: string) => claimSet.startsWith(E2E_PREFIX);

/** Action → strategies (an action without one maps to an empty list), in the file's action order. */
function actionMapOf(rows: readonly Pick<OdsActionStrategy, 'action' | 'strategy'>[]): ActionStrategies {
  const byAction = new Map<string, string[]>();
  for (const { action, strategy } of rows) {
    const strategies = byAction.get(action) ?? [];
    if (strategy !== null) strategies.push(strategy);
    byAction.set(action, strategies);
  }
  const map: ActionStrategies = {};
  for (const action of [...byAction.keys()].map(toAction).sort((a, b) => ACTIONS.indexOf(a) - ACTIONS.indexOf(b)))
    map[action] = sortedText(byAction.get(action) ?? []);
  return map;
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(keyOf(row), [...(groups.get(keyOf(row)) ?? []), row]);
  return groups;
}

function sortedNodes(nodes: ClaimNode[]): ClaimNode[] {
  for (const node of nodes) if (node.children) node.children = sortedNodes(node.children);
  return nodes.sort((a, b) => compareText(a.name, b.name));
}

function odsHierarchy(tables: OdsSecurityTables): ClaimNode[] {
  const defaults = groupBy(tables.defaults, (row) => String(row.resourceClaimId));
  const grants = groupBy(tables.grants, (row) => String(row.resourceClaimId));
  const nodes = new Map<number, ClaimNode>();
  for (const claim of tables.resourceClaims) {
    const node: ClaimNode = { name: fileClaimUri(claim.claimName) };
    const ownDefaults = defaults.get(String(claim.id));
    if (ownDefaults) node.defaultAuthorization = actionMapOf(ownDefaults);
    const ownGrants = grants.get(String(claim.id));
    if (ownGrants) {
      const byClaimSet = groupBy(ownGrants, (row) => row.claimSet);
      node.claimSets = Object.fromEntries(
        [...byClaimSet.keys()].sort(compareText).map((claimSet) => [claimSet, actionMapOf(byClaimSet.get(claimSet)!)]),
      );
    }
    nodes.set(claim.id, node);
  }
  const roots: ClaimNode[] = [];
  for (const claim of tables.resourceClaims) {
    const node = nodes.get(claim.id)!;
    const parent = claim.parentId === null ? undefined : nodes.get(claim.parentId);
    if (parent) parent.children = [...(parent.children ?? []), node];
    else roots.push(node);
  }
  return roots;
}

/** The node's grants under the ODS claim-set names; grants of claim sets the ODS does not ship (but E2E) dropped. */
function renamedGrants(node: ClaimNode, odsNameByKey: ReadonlyMap<string, string>): ClaimNode['claimSets'] {
  const entries = Object.entries(node.claimSets ?? {}).flatMap(([claimSet, grant]) => {
    const name = isE2e(claimSet) ? claimSet : odsNameByKey.get(claimSetNameKey(claimSet));
    return name === undefined ? [] : [[name, grant] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries.sort(([a], [b]) => compareText(a, b)));
}

function keptSubtree(node: ClaimNode, odsNameByKey: ReadonlyMap<string, string>): ClaimNode {
  const kept: ClaimNode = { name: node.name };
  if (node.defaultAuthorization) kept.defaultAuthorization = node.defaultAuthorization;
  const claimSets = renamedGrants(node, odsNameByKey);
  if (claimSets) kept.claimSets = claimSets;
  if (node.children) kept.children = node.children.map((child) => keptSubtree(child, odsNameByKey));
  return kept;
}

function indexByName(nodes: ClaimNode[], into = new Map<string, ClaimNode>()): Map<string, ClaimNode> {
  for (const node of nodes) {
    into.set(node.name, node);
    indexByName(node.children ?? [], into);
  }
  return into;
}

function strategiesIn(nodes: readonly ClaimNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    for (const grant of [node.defaultAuthorization, ...Object.values(node.claimSets ?? {})])
      for (const list of Object.values(grant ?? {})) list.forEach((name) => into.add(name));
    strategiesIn(node.children ?? [], into);
  }
  return into;
}

export function buildOdsClaims(tables: OdsSecurityTables, current: ClaimsFile): ClaimsFile {
  const roots = odsHierarchy(tables);
  const byName = indexByName(roots);
  const odsNameByKey = new Map(tables.claimSets.map(({ name }) => [claimSetNameKey(name), name]));

  const merge = (nodes: readonly ClaimNode[], parent: ClaimNode | undefined): void => {
    for (const node of nodes) {
      const target = byName.get(node.name);
      if (target === undefined) {
        if (!isTpdmClaim(node.name)) continue;
        const kept = keptSubtree(node, odsNameByKey);
        if (parent) parent.children = [...(parent.children ?? []), kept];
        else roots.push(kept);
        indexByName([kept], byName);
        continue;
      }
      const e2e = Object.entries(node.claimSets ?? {}).filter(([claimSet]) => isE2e(claimSet));
      if (e2e.length > 0)
        target.claimSets = Object.fromEntries(
          [...Object.entries(target.claimSets ?? {}), ...e2e].sort(([a], [b]) => compareText(a, b)),
        );
      merge(node.children ?? [], target);
    }
  };
  merge(current.hierarchy, undefined);

  const hierarchy = sortedNodes(roots);
  return {
    formatVersion: MODEL_FORMAT_VERSION,
    actions: [...ACTIONS],
    authorizationStrategies: sortedText(strategiesIn(hierarchy)),
    claimSets: [
      ...tables.claimSets.map(({ name, isEdfiPreset }) => ({ name, isSystemReserved: isEdfiPreset })),
      ...current.claimSets.filter(({ name }) => isE2e(name)),
    ].sort((a, b) => compareText(a.name, b.name)),
    hierarchy,
  };
}
