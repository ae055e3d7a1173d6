// Opaque bearer tokens: 32 random lowercase hex digits, kept in the store only as a SHA-256 hash with their expiry.
import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 1800;

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function issueAccessToken(
  store: Pick<Store, 'saveAccessToken'>,
  clientKey: string,
  lifetimeSeconds: number,
  now: number = Date.now(),
): Promise<string> {
  const token = randomBytes(16).toString('hex');
  await store.saveAccessToken({
    tokenHash: hashAccessToken(token),
    clientKey,
    expiresAt: now + lifetimeSeconds * 1000,
  });
  return token;
}
