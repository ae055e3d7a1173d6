// The checks a trie edge applies to one raw path segment (`path[start, end)`), and how each delivers its value.

import { decodeSegment } from './param-value.js';

export type ParamValue = string | number;

export interface SegmentMatcher {
  /** Edges are tried in ascending order: int, ulid, custom pattern, mixed segment, plain. */
  readonly order: number;
  /** Equal keys accept exactly the same segments, so routes with them share one trie edge. */
  readonly key: string;
  /** Typed and pattern parameters outrank plain ones. */
  readonly typed: boolean;
  matches(path: string, start: number, end: number): boolean;
  value(path: string, start: number, end: number): ParamValue;
}

const DIGIT_0 = 0x30;

/** The integer spelled by ASCII digits, or -1 when the text is empty, not all digits or not a safe integer. */
function readSafeInteger(path: string, start: number, end: number): number {
  if (end <= start) return -1;
  let value = 0;
  for (let index = start; index < end; index++) {
    const digit = path.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
    if (value > Number.MAX_SAFE_INTEGER) return -1;
  }
  return value;
}

class IntegerMatcher implements SegmentMatcher {
  readonly order = 0;
  readonly key = 'int';
  readonly typed = true;

  matches(path: string, start: number, end: number): boolean {
    return readSafeInteger(path, start, end) !== -1;
  }

  value(path: string, start: number, end: number): number {
    return readSafeInteger(path, start, end);
  }
}

const ULID_LENGTH = 26;
const CROCKFORD_BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const isCrockfordChar = new Uint8Array(128);
for (const char of CROCKFORD_BASE32 + CROCKFORD_BASE32.toLowerCase()) isCrockfordChar[char.charCodeAt(0)] = 1;

/** A 26-character Crockford base32 ULID in either letter case, delivered as sent. */
class UlidMatcher implements SegmentMatcher {
  readonly order = 1;
  readonly key = 'ulid';
  readonly typed = true;

  matches(path: string, start: number, end: number): boolean {
    if (end - start !== ULID_LENGTH) return false;
    for (let index = start; index < end; index++) {
      if (isCrockfordChar[path.charCodeAt(index)] !== 1) return false;
    }
    return true;
  }

  value(path: string, start: number, end: number): string {
    return path.slice(start, end);
  }
}

/** A declared OpenAPI `pattern`, tested against the decoded value as OpenAPI specifies. */
class PatternMatcher implements SegmentMatcher {
  readonly order = 2;
  readonly typed = true;
  readonly key: string;

  constructor(private readonly regex: RegExp) {
    this.key = `pattern:${regex.source}`;
  }

  matches(path: string, start: number, end: number): boolean {
    return end > start && this.regex.test(decodeSegment(path.slice(start, end)));
  }

  value(path: string, start: number, end: number): string {
    return decodeSegment(path.slice(start, end));
  }
}

/** A parameter between a static prefix and suffix in one segment, e.g. `file.{ext}`; affixes are case-insensitive. */
class AffixedMatcher implements SegmentMatcher {
  readonly order = 3;
  readonly typed = true;
  readonly key: string;
  // Lengths are those of the affixes as declared: lower-casing may change a string's length.
  private readonly prefixLength: number;
  private readonly suffixLength: number;
  private readonly lowerPrefix: string;
  private readonly lowerSuffix: string;

  constructor(
    prefix: string,
    suffix: string,
    private readonly inner: SegmentMatcher,
  ) {
    this.prefixLength = prefix.length;
    this.suffixLength = suffix.length;
    this.lowerPrefix = prefix.toLowerCase();
    this.lowerSuffix = suffix.toLowerCase();
    this.key = `affixed:${JSON.stringify([this.lowerPrefix, this.lowerSuffix, inner.key])}`;
  }

  matches(path: string, start: number, end: number): boolean {
    const innerStart = start + this.prefixLength;
    const innerEnd = end - this.suffixLength;
    return (
      innerEnd > innerStart &&
      path.slice(start, innerStart).toLowerCase() === this.lowerPrefix &&
      path.slice(innerEnd, end).toLowerCase() === this.lowerSuffix &&
      this.inner.matches(path, innerStart, innerEnd)
    );
  }

  value(path: string, start: number, end: number): ParamValue {
    return this.inner.value(path, start + this.prefixLength, end - this.suffixLength);
  }
}

class PlainMatcher implements SegmentMatcher {
  readonly order = 4;
  readonly key = 'plain';
  readonly typed = false;

  matches(_path: string, start: number, end: number): boolean {
    return end > start;
  }

  value(path: string, start: number, end: number): string {
    return decodeSegment(path.slice(start, end));
  }
}

export const integerMatcher: SegmentMatcher = new IntegerMatcher();
export const ulidMatcher: SegmentMatcher = new UlidMatcher();
export const plainMatcher: SegmentMatcher = new PlainMatcher();

export function patternMatcher(regex: RegExp): SegmentMatcher {
  return new PatternMatcher(regex);
}

export function affixedMatcher(prefix: string, suffix: string, inner: SegmentMatcher): SegmentMatcher {
  return new AffixedMatcher(prefix, suffix, inner);
}
