// Counts of a load as it runs: per resource created, updated and failed, plus documents skipped because a resumed
// load had them done already. The summary and the progress display read it.

export interface ResourceCounts {
  created: number;
  updated: number;
  failed: number;
}

export type Outcome = keyof ResourceCounts;

export class LoadTally {
  readonly #resources = new Map<string, ResourceCounts>();
  #skipped = 0;
  #completed = 0;
  #failed = 0;

  record(resourcePath: string, outcome: Outcome): void {
    let counts = this.#resources.get(resourcePath);
    if (!counts) {
      counts = { created: 0, updated: 0, failed: 0 };
      this.#resources.set(resourcePath, counts);
    }
    counts[outcome]++;
    this.#completed++;
    if (outcome === 'failed') this.#failed++;
  }

  skip(count = 1): void {
    this.#skipped += count;
    this.#completed += count;
  }

  /** Documents finished in any way (created, updated, failed or skipped). */
  get completed(): number {
    return this.#completed;
  }

  get failed(): number {
    return this.#failed;
  }

  get skipped(): number {
    return this.#skipped;
  }

  /** Per resource path (`/ed-fi/students`), sorted by path. */
  resources(): Record<string, ResourceCounts> {
    const sorted = [...this.#resources].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(sorted.map(([path, counts]) => [path, { ...counts }]));
  }
}
