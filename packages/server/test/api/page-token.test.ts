// Page tokens: base64url "min,max" without padding, round-tripping every int32 range; anything else is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePageToken, encodePageToken } from '../../src/api/page-token.js';

const int32 = fc.integer({ min: -2_147_483_648, max: 2_147_483_647 });

describe('page tokens', () => {
  it('encode as the ODS does', () => {
    expect(encodePageToken({ min: -2147483648, max: -2147481149 })).toBe('LTIxNDc0ODM2NDgsLTIxNDc0ODExNDk');
  });

  it('round-trip every int32 range', () => {
    fc.assert(
      fc.property(int32, int32, (min, max) => {
        const token = encodePageToken({ min, max });
        expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodePageToken(token)).toEqual({ min, max });
      }),
    );
  });

  it.each([
    ['not base64', '!!!'],
    ['one number', Buffer.from('12').toString('base64url')],
    ['three numbers', Buffer.from('1,2,3').toString('base64url')],
    ['beyond int32', Buffer.from('1,2147483648').toString('base64url')],
    ['text', Buffer.from('a,b').toString('base64url')],
    ['empty', ''],
  ])('refuse %s', (_case, token) => {
    expect(decodePageToken(token)).toBeUndefined();
  });
});
