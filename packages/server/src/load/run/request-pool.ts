// Bounded concurrency: at most `limit` requests in flight; the producer waits for a free slot before starting the next.
// A finishing task hands its slot to one waiter: racing all running tasks instead would attach a reaction to each of
// them per document started, `limit` times the promise work for every request.

export class RequestPool {
  readonly #limit: number;
  #running = 0;
  /** Resolvers of the starts waiting for a slot, first come first served. */
  readonly #slotWaiters: (() => void)[] = [];
  /** Resolvers of the idle() calls waiting for the pool to drain. */
  #idleWaiters: (() => void)[] = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`The parallelism must be a whole number ≥ 1, not ${limit}`);
    this.#limit = limit;
  }

  /** Waits for a free slot, then starts the task without waiting for it. The task must not reject. */
  async start(task: () => Promise<void>): Promise<void> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
    else this.#running++;
    void task().finally(() => this.#release());
  }

  /** Resolves once every started task has finished. */
  idle(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** A finished task's slot goes straight to the next waiter, so the count of running tasks stays put. */
  #release(): void {
    const next = this.#slotWaiters.shift();
    if (next) return next();
    this.#running--;
    if (this.#running > 0) return;
    const idleWaiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of idleWaiters) resolve();
  }
}
