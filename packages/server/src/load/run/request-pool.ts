// Bounded concurrency: at most `limit` requests in flight; the producer waits for a free slot before starting the next.

export class RequestPool {
  readonly #limit: number;
  readonly #running = new Set<Promise<void>>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`The parallelism must be a whole number ≥ 1, not ${limit}`);
    this.#limit = limit;
  }

  /** Waits for a free slot, then starts the task without waiting for it. The task must not reject. */
  async start(task: () => Promise<void>): Promise<void> {
    while (this.#running.size >= this.#limit) await Promise.race(this.#running);
    const running = task().finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** Resolves once every started task has finished. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }
}
