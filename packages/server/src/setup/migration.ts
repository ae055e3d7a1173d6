// `edfi-api migrate`: creates or upgrades a store's schema (idempotent, serialized across processes by the database),
// then seeds it when it holds nothing yet, exactly as the first command on a new store would.
import type { ModelRegistry } from '../model/index.js';
import type { MigrationOutcome } from '../store/index.js';
import { seedNewStore, type SeedMode, type Seeding } from './first-start.js';
import { createStoreCreatingFolder } from './store-location.js';

export interface MigrationReport {
  readonly outcome: MigrationOutcome;
  /** Present when the store held no data or clients and was seeded. */
  readonly seeding?: Seeding;
}

export async function migrateStore(spec: string, registry: ModelRegistry, seed: SeedMode): Promise<MigrationReport> {
  const store = createStoreCreatingFolder(spec, registry);
  try {
    const outcome = await store.migrate();
    await store.open();
    const seeding = await seedNewStore(store, registry, seed);
    return seeding === undefined ? { outcome } : { outcome, seeding };
  } finally {
    await store.close();
  }
}
