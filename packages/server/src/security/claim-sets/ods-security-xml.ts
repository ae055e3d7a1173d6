// The ODS security-metadata XML (`<SecurityMetadata><Claims><Claim name>…`) read as claim-set drafts: each claim's
// `<ClaimSets><ClaimSet name><Actions><Action name>` grants, with their `<AuthorizationStrategyOverrides>`, gathered
// per claim set across the nested claims.
import {
  ClaimSetImportError,
  type DraftAction,
  type DraftDefaultAuthorization,
  type DraftImport,
  type DraftResourceClaim,
} from './claim-set-drafts.js';
import { parseXmlTree, type XmlElement } from '../../xml/xml-tree.js';

interface Reader {
  readonly reasons: string[];
  readonly claimSets: Map<string, DraftResourceClaim[]>;
  readonly defaults: DraftDefaultAuthorization[];
}

function where(element: XmlElement): string {
  return `line ${element.line}`;
}

function nameOf(reader: Reader, element: XmlElement): string | undefined {
  const name = element.attributes.name;
  if (name === undefined || name.trim() === '') {
    reader.reasons.push(`<${element.name}> at ${where(element)} has no name attribute.`);
    return undefined;
  }
  return name;
}

/** Checks the element's children are all of the expected kinds and returns them. */
function childrenNamed(reader: Reader, element: XmlElement, expected: string): XmlElement[] {
  for (const child of element.children) {
    if (child.name !== expected) {
      reader.reasons.push(
        `<${child.name}> at ${where(child)} is not expected in <${element.name}> (only <${expected}>).`,
      );
    }
  }
  return element.children.filter((child) => child.name === expected);
}

function strategiesOf(reader: Reader, overrides: XmlElement): string[] {
  return childrenNamed(reader, overrides, 'AuthorizationStrategy').flatMap(
    (strategy) => nameOf(reader, strategy) ?? [],
  );
}

function actionOf(reader: Reader, action: XmlElement): DraftAction | undefined {
  const name = nameOf(reader, action);
  const overrides = childrenNamed(reader, action, 'AuthorizationStrategyOverrides');
  return name === undefined
    ? undefined
    : { name, authorizationStrategyOverrides: overrides.flatMap((element) => strategiesOf(reader, element)) };
}

function readClaimSet(reader: Reader, claimName: string, claimSet: XmlElement): void {
  const name = nameOf(reader, claimSet);
  const actions = childrenNamed(reader, claimSet, 'Actions')
    .flatMap((list) => childrenNamed(reader, list, 'Action'))
    .flatMap((action) => actionOf(reader, action) ?? []);
  if (name === undefined) return;
  const claims = reader.claimSets.get(name) ?? [];
  claims.push({ name: claimName, actions });
  reader.claimSets.set(name, claims);
}

function readDefault(reader: Reader, claim: string, action: XmlElement): void {
  const name = nameOf(reader, action);
  const strategies = childrenNamed(reader, action, 'AuthorizationStrategies').flatMap((list) =>
    strategiesOf(reader, list),
  );
  if (name !== undefined) reader.defaults.push({ claim, action: name, strategies });
}

function readClaim(reader: Reader, claim: XmlElement): void {
  const name = nameOf(reader, claim);
  for (const child of claim.children) {
    if (child.name === 'Claims') {
      for (const nested of childrenNamed(reader, child, 'Claim')) readClaim(reader, nested);
    } else if (child.name === 'ClaimSets') {
      if (name === undefined) continue;
      for (const claimSet of childrenNamed(reader, child, 'ClaimSet')) readClaimSet(reader, name, claimSet);
    } else if (child.name === 'DefaultAuthorization') {
      if (name === undefined) continue;
      for (const action of childrenNamed(reader, child, 'Action')) readDefault(reader, name, action);
    } else {
      reader.reasons.push(`<${child.name}> at ${where(child)} is not expected in <Claim>.`);
    }
  }
}

export function readSecurityMetadataXml(text: string): DraftImport {
  let root: XmlElement;
  try {
    const parsed = parseXmlTree(text);
    if (parsed === undefined) throw new Error('The document has no root element.');
    root = parsed;
  } catch (error) {
    throw new ClaimSetImportError([`The file is not well-formed XML: ${(error as Error).message}`]);
  }
  const reader: Reader = { reasons: [], claimSets: new Map(), defaults: [] };
  if (root.name !== 'SecurityMetadata') {
    reader.reasons.push(`The root element is <${root.name}>; the ODS security metadata has <SecurityMetadata>.`);
  }
  for (const claims of childrenNamed(reader, root, 'Claims')) {
    for (const claim of childrenNamed(reader, claims, 'Claim')) readClaim(reader, claim);
  }
  if (reader.reasons.length > 0) throw new ClaimSetImportError(reader.reasons);
  const claimSets = [...reader.claimSets].map(([name, resourceClaims]) => ({ name, resourceClaims }));
  return { claimSets, defaultAuthorizations: reader.defaults };
}
