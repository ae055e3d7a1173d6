// Unbiased random alphanumeric strings for generated client keys and secrets.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// The largest multiple of the alphabet size below 256: bytes at or above it are skipped so every character is equally likely.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export function randomAlphanumeric(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < UNBIASED_LIMIT && text.length < length) text += ALPHABET[byte % ALPHABET.length];
    }
  }
  return text;
}
