// Every descriptor URI (case-folded) → doc_id, per descriptor resource, held in memory, whatever the SQL dialect: it
// answers existence checks and resolves descriptor edges without a query. The store loads it, keeps it current with
// its own writes and asks its database for what memory does not know (other processes write too).
import type { ModelRegistry } from '../../model/index.js';
import type { DescriptorUri } from '../../model/validation/index.js';
import { DESCRIPTOR_TABLE, foldCase } from './table-layout.js';

/** The stored URI of a descriptor-table row, selected `AS uri` (the same SQL on both stores). */
export const STORED_URI = "namespace || '#' || code_value AS uri";

/** A row of the descriptor table as the cache keeps it: the identity key is the case-folded URI. */
export interface DescriptorEntry {
  readonly resourceId: number;
  readonly identityKey: string;
  readonly docId: number;
  /** The URI as stored (`namespace#codeValue`), when the load read it. */
  readonly uri?: string;
}

/** Where a URI would be found in the descriptor table. */
export interface DescriptorKey {
  readonly resourceId: number;
  readonly identityKey: string;
}

/** A URI memory did not know, at `index` of the asked list. */
export interface DescriptorMiss extends DescriptorKey {
  readonly index: number;
}

/** A batch answered from memory: `exist` is final except at the misses, which the database must answer. */
export interface CachedExistence {
  readonly exist: boolean[];
  readonly misses: readonly DescriptorMiss[];
}

/** Stored URIs answered from memory: final except at the misses, which the database must answer. */
export interface CachedStoredUris {
  readonly uris: (string | undefined)[];
  readonly misses: readonly DescriptorMiss[];
}

function storedUriKey({ resourceId, identityKey }: DescriptorKey): string {
  return `${resourceId} ${identityKey}`;
}

export class InMemoryDescriptorCache {
  /** The stored URI (`namespace#codeValue` as written) by resource id and folded URI, learnt as asked for. */
  readonly #storedUris = new Map<string, string>();
  /** namespace → descriptor resource name → folded URI → doc_id. */
  readonly #byName = new Map<string, Map<string, { resourceId: number; docIds: Map<string, number> }>>();
  readonly #byResourceId = new Map<number, Map<string, number>>();

  /** @param resourceIds resource id by `namespace/endpoint`; descriptor resources without one are never found. */
  constructor(registry: ModelRegistry, resourceIds: ReadonlyMap<string, number>) {
    for (const resource of registry.descriptorResources) {
      const resourceId = resourceIds.get(`${resource.namespace}/${resource.endpoint}`);
      if (resourceId === undefined) continue;
      const docIds = new Map<string, number>();
      this.#byResourceId.set(resourceId, docIds);
      let names = this.#byName.get(resource.namespace);
      if (!names) this.#byName.set(resource.namespace, (names = new Map()));
      names.set(resource.resourceName, { resourceId, docIds });
    }
  }

  /** Undefined when `descriptor` is not a stored descriptor resource of `namespace`. */
  keyOf(namespace: string, descriptor: string, uri: string): DescriptorKey | undefined {
    const entries = this.#byName.get(namespace)?.get(descriptor);
    return entries && { resourceId: entries.resourceId, identityKey: foldCase(uri) };
  }

  docIdOf({ resourceId, identityKey }: DescriptorKey): number | undefined {
    return this.#byResourceId.get(resourceId)?.get(identityKey);
  }

  /** A descriptor this process wrote: its doc_id, and its stored casing is read again when next asked for. */
  remember(resourceId: number, identityKey: string, docId: number): void {
    this.#byResourceId.get(resourceId)?.set(identityKey, docId);
    this.#storedUris.delete(storedUriKey({ resourceId, identityKey }));
  }

  forget(resourceId: number, identityKey: string): void {
    this.#byResourceId.get(resourceId)?.delete(identityKey);
    this.#storedUris.delete(storedUriKey({ resourceId, identityKey }));
  }

  replaceAll(entries: Iterable<DescriptorEntry>): void {
    this.#storedUris.clear();
    for (const docIds of this.#byResourceId.values()) docIds.clear();
    for (const { resourceId, identityKey, docId, uri } of entries) {
      this.remember(resourceId, identityKey, docId);
      if (uri !== undefined) this.#storedUris.set(storedUriKey({ resourceId, identityKey }), uri);
    }
  }

  existence(uris: readonly DescriptorUri[]): CachedExistence {
    const exist: boolean[] = [];
    const misses: DescriptorMiss[] = [];
    uris.forEach(({ namespace, descriptor, uri }, index) => {
      const key = this.keyOf(namespace, descriptor, uri);
      const found = key !== undefined && this.docIdOf(key) !== undefined;
      exist.push(found);
      if (key && !found) misses.push({ ...key, index });
    });
    return { exist, misses };
  }

  /** Completes a batch with the database's doc_ids for its misses (undefined: not there), remembering those found. */
  settle({ exist, misses }: CachedExistence, docIds: readonly (number | undefined)[]): boolean[] {
    misses.forEach(({ resourceId, identityKey, index }, missIndex) => {
      const docId = docIds[missIndex];
      if (docId === undefined) return;
      this.remember(resourceId, identityKey, docId);
      exist[index] = true;
    });
    return exist;
  }

  /** The stored URI of each asked URI that memory knows; the others are misses (a type that is no descriptor is not). */
  storedUris(uris: readonly DescriptorUri[]): CachedStoredUris {
    const found: (string | undefined)[] = [];
    const misses: DescriptorMiss[] = [];
    uris.forEach(({ namespace, descriptor, uri }, index) => {
      const key = this.keyOf(namespace, descriptor, uri);
      const stored = key === undefined ? undefined : this.#storedUris.get(storedUriKey(key));
      found.push(stored);
      if (key !== undefined && stored === undefined) misses.push({ ...key, index });
    });
    return { uris: found, misses };
  }

  /** Completes a batch with the database's stored URIs for its misses (undefined: not stored), remembering them. */
  settleStoredUris(
    { uris, misses }: CachedStoredUris,
    stored: readonly (string | undefined)[],
  ): (string | undefined)[] {
    misses.forEach((miss, missIndex) => {
      const uri = stored[missIndex];
      if (uri === undefined) return;
      this.#storedUris.set(storedUriKey(miss), uri);
      uris[miss.index] = uri;
    });
    return uris;
  }
}

/**
 * The descriptor table's version as any process sees it: its row count and highest doc_id. Doc ids are never reused
 * and descriptors never change key, so any insert or delete, by any process, changes the pair.
 */
export const DESCRIPTOR_TABLE_VERSION_SQL = `SELECT count(*) AS rows, coalesce(max(doc_id), 0) AS newest FROM ${DESCRIPTOR_TABLE}`;

export interface DescriptorTableVersion {
  readonly rows: number;
  readonly newest: number;
}

/** How stale another process's descriptor writes may be in this process's memory: checked at most this often. */
export const DESCRIPTOR_VERSION_CHECK_MS = 200;

/**
 * Decides when memory must be reloaded because another process inserted or deleted descriptors: the table's version
 * is read at most every DESCRIPTOR_VERSION_CHECK_MS before memory answers, and memory reloaded when it moved.
 */
export class DescriptorVersionCheck {
  #known: string | undefined;
  #checkedAt = -Infinity;

  /** Whether it is time to read the table's version again. */
  isDue(now = Date.now()): boolean {
    return now - this.#checkedAt >= DESCRIPTOR_VERSION_CHECK_MS;
  }

  /** Records the version just read (or the one a full load saw); true when memory no longer matches it. */
  moved({ rows, newest }: DescriptorTableVersion, now = Date.now()): boolean {
    this.#checkedAt = now;
    const version = `${Number(rows)}:${Number(newest)}`;
    const moved = this.#known !== undefined && version !== this.#known;
    this.#known = version;
    return moved;
  }

  /** A full load: memory matches `version`. */
  loaded(version: DescriptorTableVersion, now = Date.now()): void {
    this.moved(version, now);
  }
}
