// A stored document as authorization checks it (its securable values and id) and as a write names it when it carries
// the authorized state into the store (its id and natural key), read from the body once.
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import type { AuthorizedTarget, StoredDocument } from '../store/store.js';
import type { AuthorizedItem } from './authorization.js';

export function storedItemOf(registry: ModelRegistry, resource: ResourceModel, stored: StoredDocument): AuthorizedItem {
  return { securables: registry.accessorsOf(resource).securablesOf(JSON.parse(stored.bodyJson)), id: stored.id };
}

/** The stored item to authorize a write against, and the same item as the write's precondition. */
export function writeTargetOf(
  registry: ModelRegistry,
  resource: ResourceModel,
  stored: StoredDocument,
): { readonly item: AuthorizedItem; readonly target: AuthorizedTarget } {
  const body = JSON.parse(stored.bodyJson) as Record<string, unknown>;
  const accessors = registry.accessorsOf(resource);
  return {
    item: { securables: accessors.securablesOf(body), id: stored.id },
    target: { id: stored.id, key: { identity: accessors.identityOf(body), body } },
  };
}
