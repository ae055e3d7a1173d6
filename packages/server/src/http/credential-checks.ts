// Throttled credential checks over HTTP (issue 14, defect 4): the caller's address, and the 429 a refused or
// over-queued check answers.
import { TooManyRequests, type RequestContext } from '@edfi-api/framework';
import { CredentialThrottle, HashPoolFull, TooManyFailures } from '../security/index.js';

/** A full hash queue clears within a second or so. */
const POOL_FULL_RETRY_SECONDS = 1;

/** The peer's address; undefined for injected requests. */
export function addressOf(ctx: Pick<RequestContext, 'raw'>): string | undefined {
  return ctx.raw.req?.socket.remoteAddress;
}

function tooManyAttempts(retryAfterSeconds: number): TooManyRequests {
  return new TooManyRequests('Too many failed authentication attempts.', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/**
 * Runs credential checks through one throttle; over a limit (or with the hash pool full) throws TooManyRequests,
 * which the problem renderer answers as 429 `too-many-failed-attempts`.
 */
export function throttledChecks(throttle = new CredentialThrottle()) {
  return async <T>(
    key: string,
    address: string | undefined,
    check: () => Promise<T>,
    succeeded: (result: T) => boolean,
  ): Promise<T> => {
    let outcome: T | TooManyFailures;
    try {
      outcome = await throttle.run(key, address, check, succeeded);
    } catch (error) {
      if (error instanceof HashPoolFull) throw tooManyAttempts(POOL_FULL_RETRY_SECONDS);
      throw error;
    }
    if (outcome instanceof TooManyFailures) throw tooManyAttempts(outcome.retryAfterSeconds);
    return outcome;
  };
}
