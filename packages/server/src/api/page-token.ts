// Page tokens (contract §5.1): base64url, without padding, of the inclusive range "min,max" in decimal int32s.

export interface PageRange {
  readonly min: number;
  readonly max: number;
}

export const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const RANGE = /^(-?\d{1,10}),(-?\d{1,10})$/;

function isInt32(value: number): boolean {
  return value >= INT32_MIN && value <= INT32_MAX;
}

export function encodePageToken(range: PageRange): string {
  return Buffer.from(`${range.min},${range.max}`, 'utf8').toString('base64url');
}

/** The range a token encodes, or undefined when it is not one of ours. */
export function decodePageToken(token: string): PageRange | undefined {
  if (!BASE64URL.test(token)) return undefined;
  const match = RANGE.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (match === null) return undefined;
  const min = Number(match[1]);
  const max = Number(match[2]);
  return isInt32(min) && isInt32(max) ? { min, max } : undefined;
}
