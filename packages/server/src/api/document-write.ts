// The extraction step: what the store needs from a validated document (identity, references, descriptors, securables).
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import type { ResourceDocument } from '../model/validation/index.js';
import type { DocumentWrite } from '../store/store.js';
import { storedBodyOf } from './stored-body.js';

export function documentWriteOf(
  registry: ModelRegistry,
  resource: ResourceModel,
  document: ResourceDocument,
): DocumentWrite {
  const accessors = registry.accessorsOf(resource);
  return {
    resource,
    body: storedBodyOf(resource, document),
    identity: accessors.identityOf(document),
    superclassIdentity: accessors.superclassIdentityOf?.(document),
    // Only a complete reference names a target; validation has already rejected partial ones that matter.
    references: accessors.referencesOf(document).filter((reference) => reference.isComplete),
    descriptors: accessors.descriptorsOf(document),
    securables: accessors.securablesOf(document),
  };
}
