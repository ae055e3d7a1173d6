// The descriptor cache over PostgreSQL: the relational in-memory URI → doc_id maps, loaded on open and kept current
// by this process's writes; what memory misses (descriptors another node wrote) is asked of the database in one
// batched query per call.
import type pg from 'pg';
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

const ENTRY_COLUMNS = 'resource_id AS "resourceId", identity_key AS "identityKey", doc_id AS "docId"';

/** The wanted keys (`$1` resource ids, `$2` folded URIs) in order, each with its stored row if any. */
const WANTED =
  'unnest($1::integer[], $2::text[]) WITH ORDINALITY AS wanted (resource_id, identity_key, position) ' +
  `LEFT JOIN ${DESCRIPTOR_TABLE} USING (resource_id, identity_key)`;

function wantedParameters(keys: readonly DescriptorKey[]): [number[], string[]] {
  return [keys.map((key) => key.resourceId), keys.map((key) => key.identityKey)];
}

export class PostgresDescriptorCache implements DescriptorLookup {
  readonly #memory: InMemoryDescriptorCache;
  readonly #versionCheck = new DescriptorVersionCheck();
  #checking: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    registry: ModelRegistry,
    resourceIds: ReadonlyMap<string, number>,
  ) {
    this.#memory = new InMemoryDescriptorCache(registry, resourceIds);
  }

  async load(): Promise<void> {
    const version = await this.#tableVersion();
    const { rows } = await this.pool.query<DescriptorEntry>(
      `SELECT ${ENTRY_COLUMNS}, ${STORED_URI} FROM ${DESCRIPTOR_TABLE}`,
    );
    this.#versionCheck.loaded(version);
    this.#memory.replaceAll(rows);
  }

  async exist(uris: readonly DescriptorUri[]): Promise<readonly boolean[]> {
    await this.#reloadWhenMoved();
    const cached = this.#memory.existence(uris);
    if (cached.misses.length === 0) return cached.exist;
    return this.#memory.settle(cached, await this.#stored(this.pool, cached.misses));
  }

  async storedUris(uris: readonly DescriptorUri[]): Promise<readonly (string | undefined)[]> {
    await this.#reloadWhenMoved();
    const cached = this.#memory.storedUris(uris);
    if (cached.misses.length === 0) return cached.uris;
    const { rows } = await this.pool.query<{ uri: string | null }>(
      `SELECT ${STORED_URI} FROM ${WANTED} ORDER BY wanted.position`,
      wantedParameters(cached.misses),
    );
    return this.#memory.settleStoredUris(
      cached,
      rows.map(({ uri }) => uri ?? undefined),
    );
  }

  /** Where the URI would be stored; undefined when `descriptor` is not a descriptor resource of `namespace`. */
  keyOf(namespace: string, descriptor: string, uri: string): DescriptorKey | undefined {
    return this.#memory.keyOf(namespace, descriptor, uri);
  }

  /**
   * The doc_id of each key (undefined: not stored): from memory, the misses in one query on `db` (a writer passes
   * its transaction's client, so it sees what it wrote itself). Found misses are remembered.
   */
  async docIdsOf(
    keys: readonly DescriptorKey[],
    db: pg.Pool | pg.ClientBase = this.pool,
  ): Promise<(number | undefined)[]> {
    const docIds = keys.map((key) => this.#memory.docIdOf(key));
    const misses = keys.filter((_, index) => docIds[index] === undefined);
    if (misses.length === 0) return docIds;
    const found = await this.#stored(db, misses);
    let next = 0;
    return docIds.map((docId, index) => {
      if (docId !== undefined) return docId;
      const stored = found[next++];
      if (stored !== undefined) this.#memory.remember(keys[index]!.resourceId, keys[index]!.identityKey, stored);
      return stored;
    });
  }

  remember(resourceId: number, identityKey: string, docId: number): void {
    this.#memory.remember(resourceId, identityKey, docId);
  }

  forget(resourceId: number, identityKey: string): void {
    this.#memory.forget(resourceId, identityKey);
  }

  /**
   * Another node may have deleted (or added) descriptors since memory was loaded. The calls that find the check due
   * while it runs wait for that one check: a check each (every request of a busy turn) would count the table many
   * times over.
   */
  #reloadWhenMoved(): Promise<void> | undefined {
    if (this.#checking === undefined && this.#versionCheck.isDue())
      this.#checking = this.#reloadIfMoved().finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  async #reloadIfMoved(): Promise<void> {
    if (this.#versionCheck.moved(await this.#tableVersion())) await this.load();
  }

  async #tableVersion(): Promise<DescriptorTableVersion> {
    const { rows } = await this.pool.query<DescriptorTableVersion>(DESCRIPTOR_TABLE_VERSION_SQL);
    return rows[0]!;
  }

  /** The stored doc_id of each key, in order (undefined: not stored), in one query. */
  async #stored(db: pg.Pool | pg.ClientBase, keys: readonly DescriptorKey[]): Promise<(number | undefined)[]> {
    const { rows } = await db.query<{ docId: number | null }>(
      `SELECT doc_id AS "docId" FROM ${WANTED} ORDER BY wanted.position`,
      wantedParameters(keys),
    );
    return rows.map((row) => row.docId ?? undefined);
  }
}
