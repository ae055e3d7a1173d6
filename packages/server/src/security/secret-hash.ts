// Salted, deliberately slow hashing of client secrets (scrypt), stored as one self-describing string.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { secretHashPool } from './hash-pool.js';

const ALGORITHM = 'scrypt';
const DEFAULT_COST = { N: 16384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

interface EncodedHash {
  readonly cost: { readonly N: number; readonly r: number; readonly p: number };
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function derive(secret: string, salt: Buffer, length: number, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, length, { ...cost, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64url), so the cost can be raised later without breaking old hashes. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(secret, salt, HASH_BYTES, DEFAULT_COST);
  const { N, r, p } = DEFAULT_COST;
  return [ALGORITHM, N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

function decode(encoded: string): EncodedHash | undefined {
  const [algorithm, n, r, p, salt, hash, ...rest] = encoded.split('$');
  if (algorithm !== ALGORITHM || rest.length > 0 || salt === undefined || hash === undefined) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(cost).every((value) => Number.isSafeInteger(value) && value > 0)) return undefined;
  const decoded = { cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
  return decoded.salt.length > 0 && decoded.hash.length > 0 ? decoded : undefined;
}

/**
 * True when `secret` produces `encoded`; compares in constant time, and is false for a malformed hash. The hash runs
 * in the bounded pool, which throws HashPoolFull when too many checks are waiting.
 */
export async function verifySecret(secret: string, encoded: string): Promise<boolean> {
  const stored = decode(encoded);
  if (stored === undefined) return false;
  const candidate = await secretHashPool.run(() => derive(secret, stored.salt, stored.hash.length, stored.cost));
  return timingSafeEqual(candidate, stored.hash);
}
