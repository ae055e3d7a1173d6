// Verifies opaque bearer tokens against the store, with a short in-memory cache of the tokens found.
import { Token, Unauthorized, type BearerVerifier } from '@edfi-api/framework';
import type { Store } from '../store/store.js';
import { hashAccessToken } from './access-tokens.js';

export interface BearerVerifierOptions {
  /** How long a found token is trusted without asking the store again. Default 60 s; 0 disables the cache. */
  readonly cacheTtlMs?: number;
  /** Upper bound of cached tokens; the oldest entries go first. Default 10,000. */
  readonly cacheSize?: number;
  /** Clock in epoch milliseconds (tests). */
  readonly now?: () => number;
}

export type AccessTokenClaims = { readonly client_id: string };

interface CachedToken {
  readonly token: Token<AccessTokenClaims>;
  readonly expiresAt: number;
  readonly cachedUntil: number;
}

// The ODS parses the value as a GUID: the "N" (32 hex digits) and "D" (hyphenated) spellings, in either case.
const GUID_N = /^[0-9a-f]{32}$/i;
const GUID_D = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function normalizedToken(value: string): string {
  if (GUID_N.test(value)) return value.toLowerCase();
  if (GUID_D.test(value)) return value.replaceAll('-', '').toLowerCase();
  throw new Unauthorized('Invalid Authorization header.');
}

export function createBearerVerifier(
  store: Pick<Store, 'findAccessToken'>,
  options: BearerVerifierOptions = {},
): BearerVerifier {
  const ttl = options.cacheTtlMs ?? 60_000;
  const capacity = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedToken>();

  function remember(key: string, entry: CachedToken): void {
    if (ttl <= 0) return;
    if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
    cache.set(key, entry);
  }

  async function lookUp(key: string, at: number): Promise<Token<AccessTokenClaims>> {
    const record = await store.findAccessToken(hashAccessToken(key), at);
    if (record === undefined) throw new Unauthorized('Invalid token');
    const token = new Token<AccessTokenClaims>({ client_id: record.clientKey });
    remember(key, { token, expiresAt: record.expiresAt, cachedUntil: at + ttl });
    return token;
  }

  return (value) => {
    const key = normalizedToken(value);
    const at = now();
    const cached = cache.get(key);
    if (cached !== undefined) {
      // A token expiring inside the cache window is still refused on time.
      if (at < cached.expiresAt && at < cached.cachedUntil) return cached.token;
      cache.delete(key);
    }
    return lookUp(key, at);
  };
}
