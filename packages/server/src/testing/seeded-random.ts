// Deterministic pseudo-random numbers keyed by a seed and a name, so each generated value depends only on its own
// position in the document (adding a property elsewhere does not shift it).

/** FNV-1a over the text, then one mulberry32 round: a well-mixed unsigned 32-bit number. */
export function seededNumber(seed: number, key: string): number {
  let hash = 2166136261 ^ seed;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 16777619);
  let mixed = (hash + 0x6d2b79f5) | 0;
  mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
  mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
  return (mixed ^ (mixed >>> 14)) >>> 0;
}

/** A short lowercase base-36 token (letters and digits) for readable unique strings. */
export function seededToken(seed: number, key: string, length: number): string {
  let token = '';
  for (let round = 0; token.length < length; round++) token += seededNumber(seed, `${key}#${round}`).toString(36);
  return token.slice(0, length);
}
