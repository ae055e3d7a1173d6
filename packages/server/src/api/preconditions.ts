// Conditional request headers (contract §3.3, §3.8): If-Match for writes, If-None-Match for GET by id.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiProblem } from './problems.js';

const INT64_TEXT = /^\s*[+-]?\d+\s*$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TICKS_MASK = 0x3fff_ffff_ffff_ffffn;
const TICKS_CEILING = 0x4000_0000_0000_0000n;
const MAX_TICKS = 3_155_378_975_999_999_999n;
const TICKS_PER_DAY = 864_000_000_000n;

/**
 * Whether .NET `DateTime.FromBinary` accepts the value: the low 62 bits are ticks (at most 9999-12-31); negative values
 * are local times whose ticks may wrap, as the ODS server (at UTC) would read them.
 */
function isDateTimeBinary(value: bigint): boolean {
  let ticks = value & TICKS_MASK;
  if (value < 0n) {
    if (ticks > TICKS_CEILING - TICKS_PER_DAY) ticks -= TICKS_CEILING;
    if (ticks < 0n) ticks += TICKS_PER_DAY;
  }
  return ticks >= 0n && ticks <= MAX_TICKS;
}

function invalidEtag(): ApiProblem {
  return new ApiProblem('parameterValidationFailed', {
    detail: 'An invalid value was provided for use in detecting changes applied by other users.',
    errors: ['An invalid ETag value was provided that could not be processed back into a Date/Time value.'],
  });
}

/**
 * The If-Match value to compare with the stored etag (surrounding quotes trimmed), or undefined without the header.
 * A non-numeric value can never match, which the store reports as 412, as the ODS does.
 */
export function ifMatchOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['if-match'];
  if (header === undefined) return undefined;
  const value = header.replace(/^"+|"+$/g, '');
  if (INT64_TEXT.test(value)) {
    const number = BigInt(value.trim());
    if (number >= INT64_MIN && number <= INT64_MAX && !isDateTimeBinary(number)) throw invalidEtag();
  }
  return value;
}

/** The ODS compares If-None-Match with the unquoted stored etag as sent, so a quoted value never matches. */
export function isNotModified(headers: IncomingHttpHeaders, etag: string): boolean {
  return headers['if-none-match'] === etag;
}
