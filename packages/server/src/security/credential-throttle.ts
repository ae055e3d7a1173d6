// Failure limits for credential checks (issue 14, defect 4): per client key and per caller address, failed checks
// in a window (and checks still running, so that a burst sent all at once counts before any fails) are limited; over
// the limit the caller is told to come back later (429 with Retry-After) without a hash being computed, so one
// attacker's wrong secrets cannot queue scrypt work in front of everyone else's token requests.

export interface ThrottleLimits {
  /** Failed plus running checks allowed per subject within one window. */
  readonly attempts: number;
  readonly windowMs: number;
  /** Subjects remembered at most (the oldest are forgotten first), so the throttle's memory stays bounded. */
  readonly subjects: number;
  /**
   * A success forgets the subject's failures: right for a key (a client that knows its secret is not held back by
   * earlier typos), wrong for an address (a guesser's own valid client would reset it).
   */
  readonly forgiveOnSuccess: boolean;
}

/** 10 per key and 20 per address per minute: far above a client's own retries, far below a password guesser's. */
export const KEY_LIMITS: ThrottleLimits = { attempts: 10, windowMs: 60_000, subjects: 10_000, forgiveOnSuccess: true };
export const ADDRESS_LIMITS: ThrottleLimits = {
  attempts: 20,
  windowMs: 60_000,
  subjects: 10_000,
  forgiveOnSuccess: false,
};

interface Window {
  start: number;
  failures: number;
  running: number;
}

/** The counts of one kind of subject (client keys, or addresses). */
export class FailureWindows {
  readonly #windows = new Map<string, Window>();

  constructor(private readonly limits: ThrottleLimits) {}

  /** Seconds until `subject` may try again, or 0. */
  retryAfterSeconds(subject: string, now: number): number {
    const window = this.#current(subject, now);
    if (window === undefined || window.failures + window.running < this.limits.attempts) return 0;
    return Math.max(1, Math.ceil((window.start + this.limits.windowMs - now) / 1000));
  }

  begin(subject: string, now: number): void {
    let window = this.#current(subject, now);
    if (window === undefined) {
      if (this.#windows.size >= this.limits.subjects) this.#windows.delete(this.#windows.keys().next().value!);
      window = { start: now, failures: 0, running: 0 };
      this.#windows.set(subject, window);
    }
    window.running++;
  }

  end(subject: string, succeeded: boolean): void {
    const window = this.#windows.get(subject);
    if (window === undefined) return;
    window.running = Math.max(0, window.running - 1);
    if (!succeeded) window.failures++;
    else if (this.limits.forgiveOnSuccess) window.failures = 0;
    if (window.failures === 0 && window.running === 0) this.#windows.delete(subject);
  }

  #current(subject: string, now: number): Window | undefined {
    const window = this.#windows.get(subject);
    if (window === undefined || window.running > 0 || now - window.start < this.limits.windowMs) return window;
    this.#windows.delete(subject);
    return undefined;
  }
}

/** Over the limit: the check was not run. */
export class TooManyFailures {
  constructor(readonly retryAfterSeconds: number) {}
}

/** Per-key and per-address windows over one kind of credential check. */
export class CredentialThrottle {
  readonly #keys: FailureWindows;
  readonly #addresses: FailureWindows;

  constructor(keyLimits = KEY_LIMITS, addressLimits = ADDRESS_LIMITS) {
    this.#keys = new FailureWindows(keyLimits);
    this.#addresses = new FailureWindows(addressLimits);
  }

  /**
   * Runs `check` (true: the credentials were right) unless the key or the address is over its limit. `address` is
   * undefined when unknown (an injected request): only the key's limit applies then.
   */
  async run<T>(
    key: string,
    address: string | undefined,
    check: () => Promise<T>,
    succeeded: (result: T) => boolean,
  ): Promise<T | TooManyFailures> {
    const now = Date.now();
    const wait = Math.max(
      this.#keys.retryAfterSeconds(key, now),
      address === undefined ? 0 : this.#addresses.retryAfterSeconds(address, now),
    );
    if (wait > 0) return new TooManyFailures(wait);
    this.#keys.begin(key, now);
    if (address !== undefined) this.#addresses.begin(address, now);
    let ok = false;
    try {
      const result = await check();
      ok = succeeded(result);
      return result;
    } finally {
      this.#keys.end(key, ok);
      if (address !== undefined) this.#addresses.end(address, ok);
    }
  }
}
