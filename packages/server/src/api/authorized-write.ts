// Read, authorize, write as one decision: the write carries the state that was authorized (its etag, or none) and the
// store checks it under the write's lock. When another writer changed the item in between, the whole step runs once
// more from the read, so it is authorized against what it will replace; a second change in between fails the write.
import { StoreError } from '../store/store.js';

/** Runs `attempt` (read, authorize, write with `authorizedEtag`), and once more if the authorized state went stale. */
export async function writeAuthorizedState<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof StoreError && error.kind === 'authorized-state-changed')) throw error;
    return attempt();
  }
}
