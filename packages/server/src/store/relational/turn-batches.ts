// Work collected during one event-loop turn and run together after it: the poll phase has delivered every request
// that was ready, so setImmediate sees them all. The store runs its writes (group commit) and its reads this way.

/** One piece of work (synchronous by default) and the promise waiting for its result. */
export interface PendingWork<Work = () => unknown> {
  readonly work: Work;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class TurnBatches<Work = () => unknown> {
  readonly #pending: PendingWork<Work>[] = [];
  #scheduled = false;

  /**
   * @param runBatch settles every piece of work it is given
   * @param maxBatch pieces per call at most; the rest go to the next call, in order
   */
  constructor(
    private readonly runBatch: (batch: readonly PendingWork<Work>[]) => void,
    private readonly maxBatch = Number.POSITIVE_INFINITY,
  ) {}

  /** Queues `work` for the batch that runs after this turn; settles with the result `runBatch` gives it. */
  run<T>(work: Work): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Runs everything queued now (before the connection closes). */
  drain(): void {
    while (this.#pending.length > 0) this.runBatch(this.#pending.splice(0, this.maxBatch));
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.drain();
    });
  }
}
