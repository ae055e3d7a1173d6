// Verifies opaque bearer tokens against the store, with a short in-memory cache of the callers found; a revocation in
// this process drops the client's cached tokens at once, other processes trust theirs until the cache TTL runs out.
import { Unauthorized, type Authenticated } from '@edfi-api/framework';
import type { Caller } from '../api/caller.js';
import { findTokenHolder, normalizeAccessToken, type TokenHolderStore } from './access-tokens.js';

/** How long a node trusts a token it found: the longest a revocation elsewhere takes to reach it. */
export const DEFAULT_TOKEN_CACHE_TTL_SECONDS = 60;

export interface BearerVerifierOptions {
  /** How long a found token is trusted without asking the store again. Default 60 s; 0 disables the cache. */
  readonly cacheTtlMs?: number;
  /** Upper bound of cached tokens; the oldest entries go first. Default 10,000. */
  readonly cacheSize?: number;
  /** Clock in epoch milliseconds (tests). */
  readonly now?: () => number;
}

/** A verified access token: the caller it stands for, which handlers receive as `ctx.identity`. */
export type AuthenticatedCaller = Authenticated<Caller>;

export interface AccessTokenVerifier {
  /** The framework's bearer verifier. */
  verify(token: string): AuthenticatedCaller | Promise<AuthenticatedCaller>;
  /** Forgets the client's cached tokens, so its revocation takes effect at once in this process. */
  forgetClient(clientKey: string): void;
}

interface CachedToken {
  readonly verified: AuthenticatedCaller;
  readonly expiresAt: number;
  readonly cachedUntil: number;
}

export function createBearerVerifier(
  store: TokenHolderStore,
  options: BearerVerifierOptions = {},
): AccessTokenVerifier {
  const ttl = options.cacheTtlMs ?? DEFAULT_TOKEN_CACHE_TTL_SECONDS * 1000;
  const capacity = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedToken>();

  function remember(key: string, entry: CachedToken): void {
    if (ttl <= 0) return;
    if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
  }

  async function lookUp(key: string, at: number): Promise<AuthenticatedCaller> {
    const holder = await findTokenHolder(store, key, at);
    if (holder === undefined) throw new Unauthorized('Invalid token');
    const verified: AuthenticatedCaller = { identity: holder.caller, clientId: holder.caller.clientId };
    remember(key, { verified, expiresAt: holder.expiresAt, cachedUntil: at + ttl });
    return verified;
  }

  return {
    verify(value) {
      const key = normalizeAccessToken(value);
      if (key === undefined) throw new Unauthorized('Invalid Authorization header.');
      const at = now();
      const cached = cache.get(key);
      if (cached !== undefined) {
        // A token expiring inside the cache window is still refused on time.
        if (at < cached.expiresAt && at < cached.cachedUntil) return cached.verified;
        cache.delete(key);
      }
      return lookUp(key, at);
    },
    forgetClient(clientKey) {
      for (const [key, entry] of cache) if (entry.verified.clientId === clientKey) cache.delete(key);
    },
  };
}
