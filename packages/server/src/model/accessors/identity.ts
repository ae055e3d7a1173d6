// Compiles a resource's natural-key reader, and for subclasses the key as seen through the abstract superclass.
import type { AbstractResourceModel, ResourceModel } from '../types.js';
import { compileIdentityKey, type DocumentIdentity } from './identity-key.js';
import { compilePathGetter } from './path-collector.js';

export type IdentityReader = (document: unknown) => DocumentIdentity;

function compileReader(
  concretePaths: readonly string[],
  keyPaths: readonly string[],
  descriptorPaths: Set<string>,
): IdentityReader {
  const getters = concretePaths.map(compilePathGetter);
  const buildKey = compileIdentityKey(keyPaths, descriptorPaths);
  return (document) => buildKey(getters.map((get) => get(document)));
}

function descriptorPathsOf(resource: ResourceModel): Set<string> {
  return new Set(resource.descriptors.map((use) => use.path));
}

export function compileIdentityReader(resource: ResourceModel): IdentityReader {
  return compileReader(resource.identityPaths, resource.identityPaths, descriptorPathsOf(resource));
}

/** Reads a subclass document's identity in the abstract resource's paths (e.g. `$.schoolId` as `$.educationOrganizationId`). */
export function compileSuperclassIdentityReader(
  resource: ResourceModel,
  abstract: AbstractResourceModel,
): IdentityReader {
  const rename = resource.superclass?.identityRename;
  const concretePaths = abstract.identityPaths.map((path) => (rename && rename.to === path ? rename.from : path));
  const ownDescriptors = descriptorPathsOf(resource);
  const abstractDescriptors = new Set(
    abstract.identityPaths.filter((_, index) => ownDescriptors.has(concretePaths[index]!)),
  );
  return compileReader(concretePaths, abstract.identityPaths, abstractDescriptors);
}
