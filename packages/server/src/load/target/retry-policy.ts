// When and how long to wait before retrying a request: transient failures (no answer, 429, 5xx) are retried with
// exponential backoff and full jitter, honouring a server's Retry-After.

export interface RetryPolicy {
  /** Tries in total, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 15_000 };

/** 501 and 505 say the request will never work; every other 5xx and 429 may pass later. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/** Delay before retry number `retry` (0-based): a random share of the capped exponential, or Retry-After seconds. */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfter: string | null = null,
  random: () => number = Math.random,
): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(random() * ceiling);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
