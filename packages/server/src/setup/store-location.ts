// Opens the store a command names (serve, clients, direct loads, export, migrate), first creating the folder of a SQLite
// file so a fresh checkout just works. A new database gets its schema; an outdated one is refused unless `migrate`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ModelRegistry } from '../model/index.js';
import { createStore, openStore, type OpenStoreOptions, type Store } from '../store/index.js';

/** The store every command uses unless `--store` says otherwise. */
export const DEFAULT_STORE = 'sqlite:./data/edfi-api.sqlite';

const SQLITE_PREFIX = 'sqlite:';
const MEMORY = ':memory:';

/** The file a `sqlite:` spec names; undefined for another spec or an in-memory database. */
export function sqliteFileOf(spec: string): string | undefined {
  const file = spec.startsWith(SQLITE_PREFIX) ? spec.slice(SQLITE_PREFIX.length) : '';
  return file === '' || file === MEMORY ? undefined : path.resolve(file);
}

export function createSqliteFolder(spec: string): void {
  const file = sqliteFileOf(spec);
  if (file !== undefined) mkdirSync(path.dirname(file), { recursive: true });
}

export function openStoreCreatingFolder(
  spec: string,
  registry?: ModelRegistry,
  options: OpenStoreOptions = {},
): Promise<Store> {
  createSqliteFolder(spec);
  return openStore(spec, registry, options);
}

/** An unopened store for `migrate`, its SQLite folder created. */
export function createStoreCreatingFolder(spec: string, registry?: ModelRegistry): Store {
  createSqliteFolder(spec);
  return createStore(spec, registry);
}
