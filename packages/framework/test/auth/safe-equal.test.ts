import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeEqual } from '../../src/auth/safe-equal.js';

describe('safeEqual', () => {
  it('is true only for identical strings', () => {
    expect(safeEqual('s3cret', 's3cret')).toBe(true);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('s3cret', 's3creT')).toBe(false);
    expect(safeEqual('s3cret', 's3cret ')).toBe(false);
    expect(safeEqual('short', 'a much longer string')).toBe(false);
    expect(safeEqual('', 'x')).toBe(false);
  });

  it('compares Unicode by content', () => {
    expect(safeEqual('pässwörd', 'pässwörd')).toBe(true);
    expect(safeEqual('pässwörd', 'passwörd')).toBe(false);
  });

  it('agrees with === for any pair of strings', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => safeEqual(a, b) === (a === b)));
    fc.assert(fc.property(fc.string(), (a) => safeEqual(a, a)));
  });
});
