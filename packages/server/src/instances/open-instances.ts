// Opens the stores of every configured instance and composes one request handler: each instance's app mounted at
// `{base}/{tenant}/{context values…}`, whose tokens are issued and recognised across its tenant's instances, and
// the instances' index for every other path.
import type { RequestListener } from 'node:http';
import { createEdFiApp, tokenCacheOf, type EdFiAppOptions } from '../http/app.js';
import { createBearerVerifier } from '../security/index.js';
import { normalizeBasePath } from '../http/meta/index.js';
import type { ModelRegistry } from '../model/index.js';
import { seedNewStore, type SeedMode } from '../setup/first-start.js';
import { registryForStore } from '../setup/served-extensions.js';
import { openStoreCreatingFolder } from '../setup/store-location.js';
import type { Store } from '../store/store.js';
import { instanceRouter, type InstanceHandler } from './instance-router.js';
import { unboundTokenCheck } from './instance-binding.js';
import { instancePath, type InstanceDefinition, type InstancesConfig } from './instances-file.js';
import { createInstancesIndex } from './instances-index.js';
import { tenantTokenStore } from './tenant-tokens.js';

export type InstanceAppOptions = Omit<EdFiAppOptions, 'store' | 'basePath' | 'tokenStore' | 'bearerVerifier'> &
  Required<Pick<EdFiAppOptions, 'basePath' | 'logger'>>;

export interface StoreSetup {
  /** Upgrade an outdated schema (a new database is always set up). */
  readonly migrate?: boolean;
  /** Seed a new store (school years always; descriptors unless `none`); absent: leave it to the primary process. */
  readonly seed?: SeedMode;
  /** Live `Use-Snapshot` sessions at most; 0 answers every snapshot read with the ODS's 404 (`--snapshots off`). */
  readonly maxSnapshots?: number;
}

export interface OpenedInstances {
  readonly handler: RequestListener;
  /** Where each instance is served, by name (below the base path). */
  readonly paths: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/** An instance's open store and the registry serving the extensions that store records. */
export interface InstanceStore {
  readonly store: Store;
  readonly registry: ModelRegistry;
}

async function openInstanceStore(instance: InstanceDefinition, setup: StoreSetup): Promise<InstanceStore> {
  const registry = await registryForStore(instance.store);
  const store = await openStoreCreatingFolder(instance.store, registry, {
    migrate: setup.migrate,
    ...(setup.maxSnapshots === undefined ? {} : { maxSnapshots: setup.maxSnapshots }),
  });
  try {
    if (setup.seed !== undefined) await seedNewStore(store, registry, setup.seed);
    return { store, registry };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Opens every instance's store (one at a time, so a failure names its instance), closing them all on a failure. */
export async function openInstanceStores(
  config: InstancesConfig,
  setup: StoreSetup,
): Promise<Map<string, InstanceStore>> {
  const stores = new Map<string, InstanceStore>();
  try {
    for (const instance of config.instances) {
      try {
        stores.set(instance.name, await openInstanceStore(instance, setup));
      } catch (error) {
        throw new Error(`Instance '${instance.name}': ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
    }
    return stores;
  } catch (error) {
    await closeInstanceStores(stores);
    throw error;
  }
}

export async function closeInstanceStores(stores: ReadonlyMap<string, InstanceStore>): Promise<void> {
  await Promise.all([...stores.values()].map(({ store }) => store.close()));
}

export async function openInstances(
  config: InstancesConfig,
  setup: StoreSetup,
  options: InstanceAppOptions,
): Promise<OpenedInstances> {
  const basePath = normalizeBasePath(options.basePath);
  const stores = await openInstanceStores(config, setup);
  const storesOf = (tenant: string | undefined): Store[] =>
    config.instances.filter((other) => other.tenant === tenant).map((other) => stores.get(other.name)!.store);
  const handlers = new Map<string, InstanceHandler>();
  const paths = new Map<string, string>();
  for (const instance of config.instances) {
    const { store, registry } = stores.get(instance.name)!;
    const tenantTokens = tenantTokenStore(storesOf(instance.tenant));
    const bearerVerifier = createBearerVerifier(store, tokenCacheOf(options));
    const app = await createEdFiApp({
      ...options,
      store,
      registry,
      basePath: `${basePath}${instancePath(instance)}`,
      tokenStore: tenantTokens,
      bearerVerifier,
    });
    handlers.set(instance.name, { handler: app.handler, isUnbound: unboundTokenCheck(bearerVerifier, tenantTokens) });
    paths.set(instance.name, instancePath(instance));
  }
  const index = await createInstancesIndex({
    config,
    basePath,
    logger: options.logger,
    onResponse: options.onResponse,
  });
  return {
    handler: instanceRouter({ config, basePath, handlers, index: index.handler }),
    paths,
    close: () => closeInstanceStores(stores),
  };
}
