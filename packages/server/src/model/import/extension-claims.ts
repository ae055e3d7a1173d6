// Claims for extension resources. The default rule follows how the ODS 7.3 grants TPDM: one domain claim per
// extension (`domains/{namespace}`) granted to the same claim sets as `domains/tpdm`, holding a
// `noFurtherAuthorizationRequiredData` claim (no further authorization by default) whose children are the extension's
// resource claims. An extension folder's own `claims.json` (`{ "hierarchy": [ClaimNode…] }`, our claims format)
// replaces that domain. An extension the security metadata already claims (TPDM) keeps its claims.
import type { ClaimAction, ClaimNode, ClaimsFile, ResourceModel } from '../types.js';
import type { ExtensionFolder } from './extension-folder.js';
import { compareText } from './ordering.js';

const DOMAIN_PREFIX = 'http://ed-fi.org/identity/claims/domains/';
const TEMPLATE_DOMAIN = `${DOMAIN_PREFIX}tpdm`;
const DEFAULT_ACTIONS: ClaimAction[] = ['Create', 'Read', 'Update', 'Delete', 'ReadChanges'];

function defaultDomain(namespace: string, claims: ClaimsFile, resources: readonly ResourceModel[]): ClaimNode {
  const template = claims.hierarchy.find((node) => node.name === TEMPLATE_DOMAIN);
  if (!template?.claimSets) throw new Error(`No ${TEMPLATE_DOMAIN} claim to model extension grants on`);
  const children = resources
    .filter((resource) => resource.namespace === namespace)
    .map((resource): ClaimNode => ({ name: resource.resourceClaim }))
    .sort((a, b) => compareText(a.name, b.name));
  return {
    name: `${DOMAIN_PREFIX}${namespace}`,
    claimSets: structuredClone(template.claimSets),
    children: [
      {
        name: `${DOMAIN_PREFIX}${namespace}/noFurtherAuthorizationRequiredData`,
        defaultAuthorization: Object.fromEntries(
          DEFAULT_ACTIONS.map((action) => [action, ['NoFurtherAuthorizationRequired']]),
        ),
        children,
      },
    ],
  };
}

function ownHierarchy(extension: ExtensionFolder): ClaimNode[] | undefined {
  if (extension.claims === undefined) return undefined;
  const hierarchy = (extension.claims as { hierarchy?: unknown }).hierarchy;
  if (!Array.isArray(hierarchy)) throw new Error(`${extension.folder}/claims.json: no "hierarchy" list of claims`);
  return hierarchy as ClaimNode[];
}

/**
 * The claims an extension adds to the hierarchy: its own file's, or the default domain over `resources` (its own);
 * none when the hierarchy already claims its domain (TPDM's comes with the security metadata).
 */
export function extensionClaims(
  claims: ClaimsFile,
  extension: ExtensionFolder,
  resources: readonly ResourceModel[],
): ClaimNode[] {
  if (claims.hierarchy.some((node) => node.name === `${DOMAIN_PREFIX}${extension.namespace}`)) return [];
  return (ownHierarchy(extension) ?? [defaultDomain(extension.namespace, claims, resources)]).sort((a, b) =>
    compareText(a.name, b.name),
  );
}
