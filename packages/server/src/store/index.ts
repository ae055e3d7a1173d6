// Opens the store a connection spec names: `sqlite:<file>`, `sqlite::memory:`, or a PostgreSQL URL
// (`postgres://` or `postgresql://`, with `?schema=` and `poolSize=`).
import { getModelRegistry, registerExtensionModels, type ExtensionModel, type ModelRegistry } from '../model/index.js';
import { isPostgresSpec } from './postgres/connection-spec.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store, StoreOptions } from './store.js';

export * from './store.js';
export { SqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
export { PostgresStore } from './postgres/postgres-store.js';
export { isPostgresSpec, redactedSpec } from './postgres/connection-spec.js';

const SQLITE_PREFIX = 'sqlite:';

/** Parses a store spec into an unopened store. */
export function createStore(
  spec: string,
  registry: ModelRegistry = getModelRegistry(),
  options: StoreOptions = {},
): Store {
  if (spec.startsWith(SQLITE_PREFIX)) {
    const location = spec.slice(SQLITE_PREFIX.length);
    if (location === '') throw new Error(`The store spec '${spec}' names no file`);
    return new SqliteStore(location, registry, options);
  }
  if (isPostgresSpec(spec)) return new PostgresStore(spec, registry, options);
  throw new Error(
    `Unsupported store spec '${spec}': expected sqlite:<file>, sqlite::memory: or postgres://user@host:port/database`,
  );
}

export interface OpenStoreOptions extends StoreOptions {
  /** Upgrade an outdated schema instead of refusing it (a new, empty database is always set up). */
  readonly migrate?: boolean;
}

export interface RecordedExtensions {
  /** The optional extensions the store serves. */
  readonly served: readonly string[];
  /** The models of those added from their folders, as recorded: not yet checked against this release. */
  readonly added: readonly ExtensionModel[];
}

/** What the store records of its extensions (nothing for a new store). */
export async function recordedExtensions(spec: string): Promise<RecordedExtensions> {
  const probe = createStore(spec);
  try {
    return { served: (await probe.servedExtensions()) ?? [], added: (await probe.addedExtensions()) ?? [] };
  } finally {
    await probe.close();
  }
}

/**
 * The registry serving the optional extensions the store records (none for a new store), the extensions added to it
 * first merged into the process's model.
 */
export async function recordedRegistry(spec: string): Promise<ModelRegistry> {
  const { served, added } = await recordedExtensions(spec);
  registerExtensionModels(added);
  return getModelRegistry(served);
}

/**
 * Parses a store spec and opens the store, creating the schema of a new database first; without a registry, it
 * serves the extensions the store records.
 */
export async function openStore(
  spec: string,
  registry?: ModelRegistry,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const store = createStore(
    spec,
    registry ??
      (spec.startsWith(SQLITE_PREFIX) && spec.endsWith(':memory:') ? undefined : await recordedRegistry(spec)),
    options,
  );
  try {
    const status = await store.schemaStatus();
    if (status === 'empty' || (status === 'outdated' && options.migrate === true)) await store.migrate();
    await store.open();
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}
