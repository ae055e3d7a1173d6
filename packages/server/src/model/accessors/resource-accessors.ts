// Bundles the compiled readers of one resource; built once per resource by the registry.
import type { AbstractResourceModel, ReferenceModel, ResourceModel } from '../types.js';
import { compileDescriptorsReader, type DescriptorsReader } from './descriptors.js';
import { compileIdentityReader, compileSuperclassIdentityReader, type IdentityReader } from './identity.js';
import { compileReferencesReader, type ReferencesReader, type TargetIdentity } from './references.js';
import { compileSecurablesReader, type SecurablesReader } from './securables.js';

export interface ResourceAccessors {
  identityOf: IdentityReader;
  /** For subclasses: the identity under the abstract superclass's paths (what references to the superclass carry). */
  superclassIdentityOf?: IdentityReader;
  referencesOf: ReferencesReader;
  descriptorsOf: DescriptorsReader;
  securablesOf: SecurablesReader;
}

export function compileResourceAccessors(
  resource: ResourceModel,
  superclass: AbstractResourceModel | undefined,
  targetOf: (reference: ReferenceModel) => TargetIdentity,
): ResourceAccessors {
  const accessors: ResourceAccessors = {
    identityOf: compileIdentityReader(resource),
    referencesOf: compileReferencesReader(resource, targetOf),
    descriptorsOf: compileDescriptorsReader(resource),
    securablesOf: compileSecurablesReader(resource),
  };
  if (superclass) accessors.superclassIdentityOf = compileSuperclassIdentityReader(resource, superclass);
  return accessors;
}
