// Resource ids: every .NET GUID spelling (N, D, B, P, any case, surrounding spaces) normalises to 32 lowercase hex.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseResourceId } from '../../src/api/index.js';

const hex32 = fc.stringMatching(/^[0-9a-fA-F]{32}$/);

function hyphenated(hex: string): string {
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

describe('resource ids', () => {
  it('accept every GUID spelling', () => {
    fc.assert(
      fc.property(hex32, (hex) => {
        const canonical = hex.toLowerCase();
        for (const spelling of [hex, hyphenated(hex), `{${hyphenated(hex)}}`, `(${hyphenated(hex)})`, ` ${hex} `]) {
          expect(parseResourceId(spelling)).toBe(canonical);
        }
      }),
    );
  });

  it.each([
    'abc',
    '0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9',
    '0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9eg',
    '{0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9e}',
  ])('refuse %s', (text) => {
    expect(parseResourceId(text)).toBeUndefined();
  });
});
