// Read, authorize, write as one decision: the write carries the state that was authorized (its etag, or none) and the
// store checks it under the write's lock. When another writer changed the item in between, the whole step runs once
// more from the read, so it is authorized against what it will replace; a second change in between fails the write.
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import { StoreError, type AuthorizedTarget, type StoredDocument } from '../store/store.js';
import type { Authorization } from './authorization.js';
import { writeTargetOf } from './stored-item.js';

/** Runs `attempt` (read, authorize, write with `authorizedEtag`), and once more if the authorized state went stale. */
export async function writeAuthorizedState<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof StoreError && error.kind === 'authorized-state-changed')) throw error;
    return attempt();
  }
}

/** Authorizes the stored item a write replaces (none: nothing to check) and names it as the write's precondition. */
export async function authorizeReplaced(
  authorization: Authorization,
  registry: ModelRegistry,
  resource: ResourceModel,
  existing: StoredDocument | undefined,
): Promise<AuthorizedTarget | null> {
  if (existing === undefined) return null;
  const { item, target } = writeTargetOf(registry, resource, existing);
  await authorization.authorizeItem(item, 'existing');
  return target;
}
