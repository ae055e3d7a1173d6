// The lengths text can have and still name a lower-case route key in any letter case, as a bit set: a lookup skips
// slicing, hashing and lower-casing text of any other length.

/** The bit of a length; lengths of 31 and more share one. */
export function lengthBit(length: number): number {
  return 1 << Math.min(length, 31);
}

/** The lower case of U+0130 (İ), the one character whose lower case is longer than itself. */
const LOWER_DOTTED_I = 'i\u0307';

/** The bits of the lengths of every spelling of `key`: its own, and one less for each `i̇` that a `İ` may have spelled. */
export function spellingLengthBits(key: string): number {
  let bits = lengthBit(key.length);
  let shorter = 0;
  for (let at = key.indexOf(LOWER_DOTTED_I); at !== -1; at = key.indexOf(LOWER_DOTTED_I, at + 2)) {
    shorter++;
    bits |= lengthBit(key.length - shorter);
  }
  return bits;
}
