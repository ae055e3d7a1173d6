// A cache of values built per query shape (filter combinations, access signatures): client input decides the keys, so
// it keeps only the most recently used `capacity` of them and memory stays bounded whatever the requests ask.

/** Shapes kept per cache: enough for every shape a workload repeats, bounded whatever the queries ask. */
export const SHAPE_CACHE_CAPACITY = 512;

/**
 * Access signatures kept per resource: the claim sets' strategies decide them, not the query, so a few are enough;
 * bounded all the same.
 */
export const ACCESS_SIGNATURES_PER_RESOURCE = 16;

/** Keeps the most recently used `capacity` values. */
export class LruCache<V> {
  /** In order of last use, oldest first. */
  readonly #values = new Map<string, V>();

  constructor(private readonly capacity = SHAPE_CACHE_CAPACITY) {}

  get size(): number {
    return this.#values.size;
  }

  /** The value under `key` if one is kept (then the most recently used), without building one. */
  find(key: string): V | undefined {
    const value = this.#values.get(key);
    if (value !== undefined) {
      this.#values.delete(key);
      this.#values.set(key, value);
    }
    return value;
  }

  get(key: string, build: () => V): V {
    const kept = this.find(key);
    if (kept !== undefined) return kept;
    const value = build();
    this.set(key, value);
    return value;
  }

  /** Keeps `value` under `key` (then the most recently used), in place of any value kept before. */
  set(key: string, value: V): void {
    if (!this.#values.delete(key) && this.#values.size >= this.capacity)
      this.#values.delete(this.#values.keys().next().value!);
    this.#values.set(key, value);
  }
}
