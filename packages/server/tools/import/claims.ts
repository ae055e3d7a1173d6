// Compacts the security metadata: actions become `{Action: strategies[]}` maps, claim sets a `{name: grant}` map.
import type { ActionStrategies, ClaimAction, ClaimNode, ClaimsFile } from '../../src/model/types.js';
import { MODEL_FORMAT_VERSION } from '../../src/model/types.js';
import { compareText, sortedText } from '../../src/model/import/ordering.js';
import type { ClaimsSourceAction, ClaimsSourceFile, ClaimsSourceNode } from './source-types.js';

export const ACTIONS: readonly ClaimAction[] = ['Create', 'Read', 'Update', 'Delete', 'ReadChanges'];

export function toAction(name: string): ClaimAction {
  const action = ACTIONS.find((candidate) => candidate === name);
  if (!action) throw new Error(`Unknown claim action ${name}`);
  return action;
}

function actionMap(
  actions: ClaimsSourceAction[],
  strategiesOf: (action: ClaimsSourceAction) => string[],
): ActionStrategies {
  const map: ActionStrategies = {};
  for (const action of [...actions].sort(
    (a, b) => ACTIONS.indexOf(toAction(a.name)) - ACTIONS.indexOf(toAction(b.name)),
  )) {
    map[toAction(action.name)] = sortedText(strategiesOf(action));
  }
  return map;
}

function compactNode(node: ClaimsSourceNode, strategies: Set<string>): ClaimNode {
  const compact: ClaimNode = { name: node.name };
  if (node.defaultAuthorization) {
    compact.defaultAuthorization = actionMap(node.defaultAuthorization.actions, (action) =>
      (action.authorizationStrategies ?? []).map((strategy) => strategy.name),
    );
  }
  if (node.claimSets && node.claimSets.length > 0) {
    compact.claimSets = Object.fromEntries(
      [...node.claimSets]
        .sort((a, b) => compareText(a.name, b.name))
        .map((claimSet) => [
          claimSet.name,
          actionMap(claimSet.actions, (action) => (action.authorizationStrategyOverrides ?? []).map((s) => s.name)),
        ]),
    );
  }
  const grants = [compact.defaultAuthorization, ...Object.values(compact.claimSets ?? {})];
  for (const grant of grants)
    for (const list of Object.values(grant ?? {})) list.forEach((name) => strategies.add(name));
  if (node.claims && node.claims.length > 0) {
    compact.children = node.claims
      .map((child) => compactNode(child, strategies))
      .sort((a, b) => compareText(a.name, b.name));
  }
  return compact;
}

export function buildClaims(source: ClaimsSourceFile): ClaimsFile {
  const strategies = new Set<string>();
  const hierarchy = source.claimsHierarchy
    .map((node) => compactNode(node, strategies))
    .sort((a, b) => compareText(a.name, b.name));
  return {
    formatVersion: MODEL_FORMAT_VERSION,
    actions: [...ACTIONS],
    authorizationStrategies: sortedText(strategies),
    claimSets: source.claimSets
      .map((claimSet) => ({ name: claimSet.claimSetName, isSystemReserved: claimSet.isSystemReserved }))
      .sort((a, b) => compareText(a.name, b.name)),
    hierarchy,
  };
}
