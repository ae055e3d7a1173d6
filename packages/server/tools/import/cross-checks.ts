// Consistency checks of the built model against independent sources; any failure aborts the import.
import type { ClaimNode, ClaimsFile, PropertyShape, ResourcesFile } from '../../src/model/types.js';
import { odsPublishedDecimalBounds } from '../../src/model/import/decimal-bounds.js';
import { memberNameProblems } from './member-name-checks.js';
import type { OdsNames } from '../../src/model/import/ods-names.js';
import type { Sources } from './sources.js';

function claimNames(nodes: ClaimNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    into.add(node.name);
    claimNames(node.children ?? [], into);
  }
  return into;
}

function forEachLeaf(shape: PropertyShape, visit: (name: string, leaf: PropertyShape) => void): void {
  for (const [name, child] of Object.entries(shape.properties ?? {})) {
    visit(name, child);
    forEachLeaf(child, visit);
    if (child.items) forEachLeaf(child.items, visit);
  }
}

export function crossCheckModel(
  resources: ResourcesFile,
  claims: ClaimsFile,
  sources: Sources,
  odsNames: OdsNames,
): void {
  const problems = memberNameProblems(resources.resources, sources, odsNames);
  const knownClaims = claimNames(claims.hierarchy);
  const published = odsPublishedDecimalBounds(sources.odsSwaggerDs51.components.schemas);

  for (const resource of resources.resources) {
    const where = `${resource.namespace}/${resource.endpoint}`;
    if (!knownClaims.has(resource.resourceClaim))
      problems.push(`${where}: claim ${resource.resourceClaim} not in hierarchy`);

    forEachLeaf(resource.shape, (name, leaf) => {
      const expected = leaf.decimal ? published.get(name) : undefined;
      if (expected && (expected.minimum !== leaf.minimum || expected.maximum !== leaf.maximum)) {
        problems.push(
          `${where}: ${name} bounds ${leaf.minimum}..${leaf.maximum}, ODS 7.2 ${expected.minimum}..${expected.maximum}`,
        );
      }
    });
  }
  if (problems.length > 0) throw new Error(`Model cross-checks failed:\n${problems.join('\n')}`);
}
