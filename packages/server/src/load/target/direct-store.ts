// Opens a local store for a direct load: created and seeded like a first `serve` when new (default descriptors,
// school years and a sandbox client, whose credentials the caller shows once), closed with the target once the
// planner's statistics cover what the load wrote.
import type { ModelRegistry } from '../../model/index.js';
import { prepareFirstStart, type FirstStart } from '../../setup/first-start.js';
import { openStoreCreatingFolder } from '../../setup/store-location.js';
import { createDirectTarget } from './direct-target.js';
import type { LoadTarget } from './load-target.js';

export interface DirectStoreTarget {
  readonly target: LoadTarget;
  /** Present when the store was new and has just been set up. */
  readonly firstStart?: FirstStart;
}

export async function openDirectStoreTarget(spec: string, registry: ModelRegistry): Promise<DirectStoreTarget> {
  const store = await openStoreCreatingFolder(spec, registry);
  try {
    const firstStart = await prepareFirstStart(store, registry, 'descriptors');
    const onClose = async () => {
      try {
        await store.refreshStatistics();
      } finally {
        await store.close();
      }
    };
    const target = createDirectTarget({ store, registry, description: spec, onClose });
    return { target, firstStart };
  } catch (error) {
    await store.close();
    throw error;
  }
}
