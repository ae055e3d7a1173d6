// Claim sets written out in the import formats (our JSON, or the ODS security-metadata XML), claims named in the
// ODS's form, so that an export imports again unchanged.
import type { ClaimAction, ClaimSetGrant } from '../../model/index.js';
import type { ClaimSetDefinition } from '../../store/store.js';
import { odsClaimUri } from '../claims/index.js';
import type { DraftAction, DraftClaimSet } from './claim-set-drafts.js';

function actionsOf(grant: ClaimSetGrant, order: readonly ClaimAction[]): DraftAction[] {
  return order
    .filter((action) => grant[action] !== undefined)
    .map((action) => ({ name: action, authorizationStrategyOverrides: grant[action]! }));
}

export function draftOf(definition: ClaimSetDefinition, actionOrder: readonly ClaimAction[]): DraftClaimSet {
  return {
    name: definition.name,
    resourceClaims: Object.entries(definition.resourceClaims).map(([uri, grant]) => ({
      name: odsClaimUri(uri),
      actions: actionsOf(grant, actionOrder),
    })),
  };
}

export function claimSetsJson(drafts: readonly DraftClaimSet[]): string {
  return `${JSON.stringify({ claimSets: drafts }, null, 2)}\n`;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function attribute(value: string): string {
  return value.replace(/[&<>"]/g, (character) => ESCAPES[character]!);
}

function actionXml(action: DraftAction, indent: string): string[] {
  const open = `${indent}<Action name="${attribute(action.name)}"`;
  if (action.authorizationStrategyOverrides.length === 0) return [`${open} />`];
  return [
    `${open}>`,
    `${indent}  <AuthorizationStrategyOverrides>`,
    ...action.authorizationStrategyOverrides.map(
      (strategy) => `${indent}    <AuthorizationStrategy name="${attribute(strategy)}" />`,
    ),
    `${indent}  </AuthorizationStrategyOverrides>`,
    `${indent}</Action>`,
  ];
}

/** One `<Claim>` per resource claim of a claim set, each with that claim set's grant (no nesting, no defaults). */
export function claimSetsXml(drafts: readonly DraftClaimSet[]): string {
  const lines = ['<SecurityMetadata>', '  <Claims>'];
  for (const draft of drafts) {
    for (const claim of draft.resourceClaims) {
      lines.push(
        `    <Claim name="${attribute(claim.name)}">`,
        '      <ClaimSets>',
        `        <ClaimSet name="${attribute(draft.name)}">`,
        '          <Actions>',
        ...claim.actions.flatMap((action) => actionXml(action, '            ')),
        '          </Actions>',
        '        </ClaimSet>',
        '      </ClaimSets>',
        '    </Claim>',
      );
    }
  }
  lines.push('  </Claims>', '</SecurityMetadata>');
  return `${lines.join('\n')}\n`;
}
