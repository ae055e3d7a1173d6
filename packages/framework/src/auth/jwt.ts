// HS256 JSON Web Tokens: the bearer verifier used when `hashKey` is set, and `signToken` for apps' token endpoints.

import { createDecoder, createSigner, createVerifier, TOKEN_ERROR_CODES } from 'fast-jwt';
import { ConfigurationError, Unauthorized } from '../errors.js';
import { Token } from './token.js';

export interface JwtOptions {
  /** Clock tolerance in seconds for `exp`, `nbf` and `iat`; default 0. */
  leeway?: number;
  /** Reject tokens without an `exp` claim; default true. */
  requireExp?: boolean;
  /** When set, the `iss` claim must equal it. */
  issuer?: string;
  /** When set, the `aud` claim (a string or an array) must contain it. */
  audience?: string;
  /**
   * How many verified tokens to remember (keyed by a hash of the whole token, so no collision can swap identities);
   * a hit skips the HMAC. Default 1000; 0 turns the cache off.
   */
  cacheSize?: number;
}

export interface SignTokenOptions {
  hashKey: string | Buffer;
  /** Lifetime in seconds; default 3600. */
  expiresIn?: number;
  issuer?: string;
  audience?: string | readonly string[];
  subject?: string;
}

const ALGORITHM = 'HS256';
/** HS256 keys shorter than the hash output weaken the HMAC (php-jwt 7 refuses them too). */
const MIN_KEY_BYTES = 32;
const DEFAULT_CACHE_SIZE = 1000;
const DEFAULT_LIFETIME_SECONDS = 3600;

/** Creates the verifier once (fails fast on a weak key); the returned function throws `Unauthorized` for any bad token. */
export function createJwtVerifier(hashKey: string | Buffer, options: JwtOptions = {}): (token: string) => Token {
  assertStrongKey(hashKey);
  const leeway = nonNegative(options.leeway ?? 0, 'jwt.leeway');
  const verify = createVerifier({
    key: hashKey,
    algorithms: [ALGORITHM],
    clockTolerance: leeway * 1000,
    requiredClaims: options.requireExp === false ? [] : ['exp'],
    // Verification errors are cached for at most `leeway` ms; only `nbf` errors depend on time, so this fails closed.
    cache: nonNegative(options.cacheSize ?? DEFAULT_CACHE_SIZE, 'jwt.cacheSize'),
  });
  const { issuer, audience } = options;

  return (token) => {
    let claims: Record<string, unknown>;
    try {
      claims = verify(token) as Record<string, unknown>;
    } catch (error) {
      throw new Unauthorized(verificationMessage(error, token));
    }
    assertIssuedInThePast(claims, leeway);
    if (issuer !== undefined && claims['iss'] !== issuer) throw new Unauthorized('Invalid issuer');
    if (audience !== undefined && !hasAudience(claims['aud'], audience)) throw new Unauthorized('Invalid audience');
    return new Token(deepFreeze(claims));
  };
}

/** Signs `claims` with HS256, setting `iat` to now and `exp` to now + `expiresIn`; the options override same-named claims. */
export function signToken(claims: Record<string, unknown>, options: SignTokenOptions): string {
  assertStrongKey(options.hashKey);
  const expiresIn = options.expiresIn ?? DEFAULT_LIFETIME_SECONDS;
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new ConfigurationError(`signToken: expiresIn must be a positive number of seconds (got ${expiresIn}).`);
  }
  const iat = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { ...claims, iat, exp: iat + Math.floor(expiresIn) };
  if (options.issuer !== undefined) payload['iss'] = options.issuer;
  if (options.audience !== undefined) payload['aud'] = options.audience;
  if (options.subject !== undefined) payload['sub'] = options.subject;
  return createSigner({ key: options.hashKey, algorithm: ALGORITHM })(payload);
}

function assertStrongKey(hashKey: string | Buffer): void {
  const bytes = typeof hashKey === 'string' ? Buffer.byteLength(hashKey, 'utf8') : hashKey.length;
  if (bytes < MIN_KEY_BYTES) {
    throw new ConfigurationError(`hashKey must be at least ${MIN_KEY_BYTES} bytes for HS256 (got ${bytes}).`);
  }
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new ConfigurationError(`${name} must be a non-negative number (got ${value}).`);
  }
  return value;
}

const MESSAGES_BY_CODE: ReadonlyMap<string, string> = new Map([
  [TOKEN_ERROR_CODES.expired, 'Expired token'],
  [TOKEN_ERROR_CODES.invalidSignature, 'Signature verification failed'],
  [TOKEN_ERROR_CODES.missingSignature, 'Signature verification failed'],
  [TOKEN_ERROR_CODES.invalidAlgorithm, 'Algorithm not allowed'],
  [TOKEN_ERROR_CODES.missingRequiredClaim, 'Missing exp claim'],
]);

const decodePayload = createDecoder();

/** php-jwt-style messages; fast-jwt's own texts are not part of our contract. */
function verificationMessage(error: unknown, token: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === TOKEN_ERROR_CODES.inactive) {
    return `Cannot handle token with nbf prior to ${isoTime(claimOf(token, 'nbf'))}`;
  }
  const known = typeof code === 'string' ? MESSAGES_BY_CODE.get(code) : undefined;
  return known ?? 'Malformed token';
}

function claimOf(token: string, name: string): unknown {
  return (decodePayload(token) as Record<string, unknown>)[name];
}

/** fast-jwt does not check `iat`; php-jwt rejects tokens issued in the future. */
function assertIssuedInThePast(claims: Record<string, unknown>, leeway: number): void {
  const iat = claims['iat'];
  if (iat === undefined) return;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Unauthorized('Malformed token');
  if (iat - leeway > Date.now() / 1000) throw new Unauthorized(`Cannot handle token with iat prior to ${isoTime(iat)}`);
}

function hasAudience(aud: unknown, expected: string): boolean {
  return aud === expected || (Array.isArray(aud) && aud.includes(expected));
}

function isoTime(seconds: unknown): string {
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : String(seconds);
}

/** Cached verifications share one claims object between requests, so nothing may change it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Not Object.values: that builds an array per object of every token. Claims are JSON, so nothing is inherited.
    if (Array.isArray(value)) for (const child of value) deepFreeze(child);
    else for (const key in value) deepFreeze(value[key]);
  }
  return value;
}
