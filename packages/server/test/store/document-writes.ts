// Builds the DocumentWrite the API layer would hand the store, from a canonical body, with the model's accessors.
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import type { DocumentWrite } from '../../src/store/store.js';

const registry = getModelRegistry();

export function resourceNamed(endpoint: string, namespace = 'ed-fi'): ResourceModel {
  const resource = registry.getResource(namespace, endpoint);
  if (!resource) throw new Error(`No resource ${namespace}/${endpoint}`);
  return resource;
}

export function documentWrite(resource: ResourceModel, body: Record<string, unknown>): DocumentWrite {
  const accessors = registry.accessorsOf(resource);
  return {
    resource,
    body,
    identity: accessors.identityOf(body),
    superclassIdentity: accessors.superclassIdentityOf?.(body),
    references: accessors.referencesOf(body).filter((reference) => reference.isComplete),
    descriptors: accessors.descriptorsOf(body),
    securables: accessors.securablesOf(body),
  };
}
