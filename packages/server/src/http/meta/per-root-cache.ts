// Documents that embed absolute URLs differ per {root}; this keeps the few recent roots' copies (Host is client input).
export class PerRootCache<T> {
  readonly #entries = new Map<string, T>();

  constructor(
    private readonly create: (root: string) => T,
    private readonly capacity = 16,
  ) {}

  get(root: string): T {
    const cached = this.#entries.get(root);
    if (cached !== undefined) {
      // Re-insert so the Map's insertion order doubles as recency order.
      this.#entries.delete(root);
      this.#entries.set(root, cached);
      return cached;
    }
    const created = this.create(root);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(root, created);
    return created;
  }
}
