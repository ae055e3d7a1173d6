// OAuth client-credentials tokens for the HTTP target (contract §2): one token shared by all requests, fetched once
// at a time, renewed shortly before it expires and whenever the API answers 401 to it.
import type { FetchLike } from './fetch-like.js';
import { LoadAbortedError } from './load-target.js';
import { requestWithRetries } from './retrying-request.js';
import type { RetryPolicy } from './retry-policy.js';

export interface TokenSourceOptions {
  readonly tokenUrl: string;
  readonly key: string;
  readonly secret: string;
  readonly fetch: FetchLike;
  readonly retry: RetryPolicy;
  readonly now?: () => number;
}

interface IssuedToken {
  readonly value: string;
  /** Epoch ms after which the token is renewed before use. */
  readonly renewAt: number;
}

/** Renew when this share of the lifetime is left, and never later than this many ms before expiry. */
const RENEW_SHARE = 0.1;
const RENEW_MARGIN_MS = 30_000;

function renewTime(issuedAt: number, lifetimeSeconds: number): number {
  const lifetimeMs = lifetimeSeconds * 1000;
  return issuedAt + lifetimeMs - Math.min(lifetimeMs / 2, Math.max(RENEW_MARGIN_MS, lifetimeMs * RENEW_SHARE));
}

function parseTokenResponse(text: string): { access_token?: unknown; expires_in?: unknown } | undefined {
  try {
    return JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
  } catch {
    return undefined;
  }
}

export class TokenSource {
  readonly #options: TokenSourceOptions;
  readonly #now: () => number;
  #current: IssuedToken | undefined;
  #pending: Promise<IssuedToken> | undefined;

  constructor(options: TokenSourceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A token valid for a while yet; concurrent callers share one token request. */
  async token(signal: AbortSignal): Promise<string> {
    const current = this.#current;
    if (current && this.#now() < current.renewAt) return current.value;
    this.#pending ??= this.#issue(signal).finally(() => {
      this.#pending = undefined;
    });
    this.#current = await this.#pending;
    return this.#current.value;
  }

  /** The API refused this token (expired or revoked early): the next caller gets a new one. */
  invalidate(token: string): void {
    if (this.#current?.value === token) this.#current = undefined;
  }

  async #issue(signal: AbortSignal): Promise<IssuedToken> {
    const { tokenUrl, key, secret, fetch, retry } = this.#options;
    const issuedAt = this.#now();
    const outcome = await requestWithRetries(
      () =>
        fetch(tokenUrl, {
          method: 'POST',
          headers: {
            Authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            Accept: 'application/json',
          },
          body: 'grant_type=client_credentials',
        }),
      retry,
      signal,
    );
    if ('networkError' in outcome) {
      throw new LoadAbortedError(`No token from ${tokenUrl}: ${outcome.networkError.message}`);
    }
    const text = await outcome.response.text();
    if (outcome.response.status !== 200) {
      throw new LoadAbortedError(`The token request to ${tokenUrl} was refused (${outcome.response.status}): ${text}`);
    }
    const body = parseTokenResponse(text);
    if (typeof body?.access_token !== 'string') throw new LoadAbortedError(`${tokenUrl} answered no access_token`);
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 1800;
    return { value: body.access_token, renewAt: renewTime(issuedAt, lifetime) };
  }
}
