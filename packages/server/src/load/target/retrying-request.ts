// Sends one HTTP request, retrying while the failure is transient; the caller gets the last answer or network error.
import type { FetchResponse } from './fetch-like.js';
import { isTransientStatus, retryDelayMs, sleep, type RetryPolicy } from './retry-policy.js';

export type RequestOutcome = { readonly response: FetchResponse } | { readonly networkError: Error };

export async function requestWithRetries(
  send: () => Promise<FetchResponse>,
  policy: RetryPolicy,
  signal: AbortSignal,
): Promise<RequestOutcome> {
  for (let attempt = 1; ; attempt++) {
    let outcome: RequestOutcome;
    try {
      outcome = { response: await send() };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      outcome = { networkError: error instanceof Error ? error : new Error(String(error)) };
    }
    const retryable = 'networkError' in outcome || isTransientStatus(outcome.response.status);
    if (!retryable || attempt >= policy.attempts) return outcome;
    const retryAfter = 'response' in outcome ? outcome.response.headers.get('retry-after') : null;
    if ('response' in outcome) await outcome.response.text(); // free the connection before waiting
    await sleep(retryDelayMs(policy, attempt - 1, retryAfter), signal);
  }
}
