// Claims for extension resources. The default rule follows how the ODS 7.3 grants TPDM: one domain claim per
// extension (`domains/{namespace}`) granted to the same claim sets as `domains/tpdm`, holding a
// `noFurtherAuthorizationRequiredData` claim (no further authorization by default) whose children are the extension's
// resource claims. An extension folder's own `claims.json` (`{ "hierarchy": [ClaimNode…] }`, our claims format)
// replaces that domain. An extension the security metadata already claims (TPDM) keeps its claims.
import type { ClaimAction, ClaimNode, ClaimsFile, ResourceModel } from '../../src/model/types.js';
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

export function withExtensionClaims(
  claims: ClaimsFile,
  extensions: readonly ExtensionFolder[],
  resources: readonly ResourceModel[],
): ClaimsFile {
  if (extensions.length === 0) return claims;
  const claimed = new Set(claims.hierarchy.map((node) => node.name));
  const added = extensions
    .filter((extension) => !claimed.has(`${DOMAIN_PREFIX}${extension.namespace}`))
    .flatMap((extension) => ownHierarchy(extension) ?? [defaultDomain(extension.namespace, claims, resources)]);
  return {
    ...claims,
    hierarchy: [...claims.hierarchy, ...added].sort((a, b) => compareText(a.name, b.name)),
  };
}
