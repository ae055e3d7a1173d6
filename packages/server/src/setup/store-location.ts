// Opens the store a command names (serve, clients, direct loads), first creating the folder of a SQLite file so a
// fresh checkout just works.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ModelRegistry } from '../model/index.js';
import { openStore, type Store } from '../store/index.js';

/** The store every command uses unless `--store` says otherwise. */
export const DEFAULT_STORE = 'sqlite:./data/edfi-api.sqlite';

const SQLITE_PREFIX = 'sqlite:';
const MEMORY = ':memory:';

export function openStoreCreatingFolder(spec: string, registry?: ModelRegistry): Promise<Store> {
  const file = spec.startsWith(SQLITE_PREFIX) ? spec.slice(SQLITE_PREFIX.length) : '';
  if (file !== '' && file !== MEMORY) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return openStore(spec, registry);
}
