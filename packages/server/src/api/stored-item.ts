// A stored document as authorization checks it: its securable values and its id.
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import type { StoredDocument } from '../store/store.js';
import type { AuthorizedItem } from './authorization.js';

export function storedItemOf(registry: ModelRegistry, resource: ResourceModel, stored: StoredDocument): AuthorizedItem {
  return { securables: registry.accessorsOf(resource).securablesOf(JSON.parse(stored.bodyJson)), id: stored.id };
}
