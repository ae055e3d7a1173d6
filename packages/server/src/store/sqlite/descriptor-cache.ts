// The descriptor cache over SQLite: loads the in-memory URI → doc_id maps on open and answers what memory misses
// (descriptors another process wrote) from the database, synchronously for the writer and one query per batch for
// validation's existence checks.
import type Database from 'better-sqlite3';
import type { ModelRegistry } from '../../model/index.js';
import type { DescriptorLookup, DescriptorUri } from '../../model/validation/index.js';
import {
  DESCRIPTOR_TABLE_VERSION_SQL,
  DescriptorVersionCheck,
  InMemoryDescriptorCache,
  STORED_URI,
  type DescriptorEntry,
  type DescriptorKey,
  type DescriptorTableVersion,
} from '../relational/descriptor-cache.js';
import { DESCRIPTOR_TABLE } from '../relational/table-layout.js';

const ENTRY_COLUMNS = 'resource_id AS resourceId, identity_key AS identityKey, doc_id AS docId';

function entryKey({ resourceId, identityKey }: DescriptorKey): string {
  return `${resourceId} ${identityKey}`;
}

/** Keys as the statements take them: a JSON array of `[resourceId, identityKey]` pairs. */
function wantedKeys(keys: readonly DescriptorKey[]): string {
  return JSON.stringify(keys.map(({ resourceId, identityKey }) => [resourceId, identityKey]));
}

export class DescriptorCache implements DescriptorLookup {
  readonly #memory: InMemoryDescriptorCache;
  readonly #all: Database.Statement<[], DescriptorEntry>;
  /** Takes the wanted keys as a JSON array of `[resourceId, identityKey]` pairs. */
  readonly #find: Database.Statement<[string], DescriptorEntry>;
  /** Takes the wanted keys as #find does; answers their stored URIs in the order asked. */
  readonly #findUris: Database.Statement<[string], { uri: string | null }>;
  readonly #version: Database.Statement<[], DescriptorTableVersion>;
  readonly #versionCheck = new DescriptorVersionCheck();

  constructor(db: Database.Database, registry: ModelRegistry, resourceIds: ReadonlyMap<string, number>) {
    this.#memory = new InMemoryDescriptorCache(registry, resourceIds);
    this.#all = db.prepare(`SELECT ${ENTRY_COLUMNS}, ${STORED_URI} FROM ${DESCRIPTOR_TABLE}`);
    this.#version = db.prepare(DESCRIPTOR_TABLE_VERSION_SQL);
    this.#find = db.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM json_each(?) AS wanted JOIN ${DESCRIPTOR_TABLE} ` +
        'ON resource_id = wanted.value ->> 0 AND identity_key = wanted.value ->> 1',
    );
    this.#findUris = db.prepare(
      `SELECT ${STORED_URI} FROM json_each(?) AS wanted LEFT JOIN ${DESCRIPTOR_TABLE} ` +
        'ON resource_id = wanted.value ->> 0 AND identity_key = wanted.value ->> 1 ORDER BY wanted.key',
    );
  }

  load(): void {
    this.#versionCheck.loaded(this.#version.get()!);
    this.#memory.replaceAll(this.#all.iterate());
  }

  async exist(uris: readonly DescriptorUri[]): Promise<readonly boolean[]> {
    this.#reloadWhenMoved();
    const cached = this.#memory.existence(uris);
    if (cached.misses.length === 0) return cached.exist;
    return this.#memory.settle(cached, this.#docIdsOf(cached.misses));
  }

  async storedUris(uris: readonly DescriptorUri[]): Promise<readonly (string | undefined)[]> {
    this.#reloadWhenMoved();
    const cached = this.#memory.storedUris(uris);
    if (cached.misses.length === 0) return cached.uris;
    const found = this.#findUris.all(wantedKeys(cached.misses)).map(({ uri }) => uri ?? undefined);
    return this.#memory.settleStoredUris(cached, found);
  }

  docIdOf(namespace: string, descriptor: string, uri: string): number | undefined {
    const key = this.#memory.keyOf(namespace, descriptor, uri);
    if (!key) return undefined;
    return this.#memory.docIdOf(key) ?? this.#reload(key);
  }

  remember(resourceId: number, identityKey: string, docId: number): void {
    this.#memory.remember(resourceId, identityKey, docId);
  }

  forget(resourceId: number, identityKey: string): void {
    this.#memory.forget(resourceId, identityKey);
  }

  /** Re-reads one URI after another process may have deleted or re-created it. */
  refresh(namespace: string, descriptor: string, uri: string): void {
    const key = this.#memory.keyOf(namespace, descriptor, uri);
    if (!key) return;
    this.#memory.forget(key.resourceId, key.identityKey);
    this.#reload(key);
  }

  /** Another process may have deleted (or added) descriptors since memory was loaded. */
  #reloadWhenMoved(): void {
    if (this.#versionCheck.isDue() && this.#versionCheck.moved(this.#version.get()!)) this.load();
  }

  #reload(key: DescriptorKey): number | undefined {
    const [docId] = this.#docIdsOf([key]);
    if (docId !== undefined) this.#memory.remember(key.resourceId, key.identityKey, docId);
    return docId;
  }

  /** The stored doc_id of each key (undefined: not stored), in one query. */
  #docIdsOf(keys: readonly DescriptorKey[]): (number | undefined)[] {
    const found = new Map(this.#find.all(wantedKeys(keys)).map((entry) => [entryKey(entry), entry.docId]));
    return keys.map((key) => found.get(entryKey(key)));
  }
}
