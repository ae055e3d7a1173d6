// A stored document as authorization checks it (its securable values and id) and as a write names it when it carries
// the authorized state into the store (its id and natural key), read from the body once.
import type { DocumentIdentity, ModelRegistry, ResourceModel } from '../model/index.js';
import type { AuthorizedTarget, StoredDocument } from '../store/store.js';
import type { AuthorizedItem } from './authorization.js';

function bodyOf(stored: StoredDocument): Record<string, unknown> {
  return JSON.parse(stored.bodyJson) as Record<string, unknown>;
}

function itemOf(registry: ModelRegistry, resource: ResourceModel, id: string, body: object): AuthorizedItem {
  return { securables: registry.accessorsOf(resource).securablesOf(body), id };
}

export function storedItemOf(registry: ModelRegistry, resource: ResourceModel, stored: StoredDocument): AuthorizedItem {
  return itemOf(registry, resource, stored.id, bodyOf(stored));
}

export function identityOfStored(
  registry: ModelRegistry,
  resource: ResourceModel,
  stored: StoredDocument,
): DocumentIdentity {
  return registry.accessorsOf(resource).identityOf(bodyOf(stored));
}

/** The stored item to authorize a write against, and the same item as the write's precondition. */
export function writeTargetOf(
  registry: ModelRegistry,
  resource: ResourceModel,
  stored: StoredDocument,
): { readonly item: AuthorizedItem; readonly target: AuthorizedTarget } {
  const body = bodyOf(stored);
  const identity = registry.accessorsOf(resource).identityOf(body);
  return { item: itemOf(registry, resource, stored.id, body), target: { id: stored.id, key: { identity, body } } };
}
