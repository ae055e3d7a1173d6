// Constant-time string comparison for secrets and API keys in client repositories.

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two strings without leaking where they differ or how long they are: both sides are hashed to
 * equal-length SHA-256 digests first, which `timingSafeEqual` requires.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
