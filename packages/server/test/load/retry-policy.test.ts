import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTransientStatus, retryDelayMs, sleep } from '../../src/load/target/retry-policy.js';

const policy = { attempts: 6, baseDelayMs: 250, maxDelayMs: 15_000 };

describe('the retry policy', () => {
  it('retries 429 and server errors, except those that say the request can never work', () => {
    expect([429, 500, 502, 503, 504].every(isTransientStatus)).toBe(true);
    expect([200, 201, 400, 401, 403, 404, 409, 412, 501, 505].some(isTransientStatus)).toBe(false);
  });

  it('waits a random share of an exponential that is capped (full jitter)', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, random) => {
        const delay = retryDelayMs(policy, retry, null, () => random);
        const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
        return delay >= 0 && delay <= ceiling;
      }),
    );
    expect(retryDelayMs(policy, 3, null, () => 0.999)).toBe(1998);
  });

  it('honours Retry-After seconds, capped like any delay', () => {
    expect(retryDelayMs(policy, 0, '2')).toBe(2000);
    expect(retryDelayMs(policy, 0, '3600')).toBe(15_000);
    expect(retryDelayMs(policy, 0, 'Wed, 21 Oct 2015 07:28:00 GMT', () => 0.5)).toBe(125);
  });

  it('stops waiting as soon as the load is aborted', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
