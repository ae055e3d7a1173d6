// A bounded pool for the deliberately slow secret hashes. node's async scrypt already runs on libuv's thread pool,
// off the event loop, but that pool (4 threads) also serves file I/O and DNS: at most HASHES_AT_ONCE hashes run at
// a time, a bounded number wait, and beyond that a check is refused at once (the caller answers 429) instead of
// queueing work that would delay every other request.

export const HASHES_AT_ONCE = 2;
export const HASHES_WAITING = 64;

export class HashPoolFull extends Error {
  constructor() {
    super('Too many secret checks are waiting.');
  }
}

export class HashPool {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    private readonly atOnce = HASHES_AT_ONCE,
    private readonly maxWaiting = HASHES_WAITING,
  ) {}

  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.#running >= this.atOnce) {
      if (this.#waiting.length >= this.maxWaiting) throw new HashPoolFull();
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return await hash();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

/** The process's one pool: every secret check shares it. */
export const secretHashPool = new HashPool();
