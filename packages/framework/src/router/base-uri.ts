// Extracts the API version and the route path from a request path with `baseUriRegex` (default `/api/v<n>/…`, in any
// letter case like the routes).

import { ConfigurationError } from '../errors.js';
import { toBaseUriRegExp } from './base-uri-pattern.js';

export interface VersionedPath {
  readonly version: number;
  readonly path: string;
}

/** Takes a URL path without its query string; null when it does not match `baseUriRegex`. */
export type BaseUriMatcher = (pathname: string) => VersionedPath | null;

const DEFAULT_PATTERN = '^/api/v(?<Version>[0-9]+)(?<Path>/.*)$';
const DEFAULT_SOURCES = new Set(
  [DEFAULT_PATTERN, '^/api/v(?<Version>\\d+)(?<Path>/.*)$'].map((p) => new RegExp(p).source),
);
const DEFAULT_PREFIX = '/api/v';
/** The version of every request when the pattern has no `Version` group: a single-version API. */
const UNVERSIONED = 1;
const SLASH = 0x2f;
const DIGIT_0 = 0x30;

/**
 * `pattern` is a RegExp, a JS regex source or a PCRE string (`#…#i`, `(?P<Version>…)`) with the named groups `Version`
 * and `Path`, matched with its own flags; without one the default `/api/v<n>/…` is matched case-insensitively without
 * a regex. Throws a ConfigurationError when invalid.
 */
export function compileBaseUri(pattern?: RegExp | string): BaseUriMatcher {
  if (pattern === undefined) return matchDefaultBaseUri;
  const regex = toBaseUriRegExp(pattern);
  requireNamedGroups(regex);
  if (regex.flags === 'i' && DEFAULT_SOURCES.has(regex.source)) return matchDefaultBaseUri;
  const versioned = namedGroupsOf(regex).has('Version');
  return (pathname) => {
    const groups = regex.exec(pathname)?.groups;
    if (groups === undefined) return null;
    const version = versioned ? parseVersion(groups.Version) : UNVERSIONED;
    if (version === null) return null;
    return { version, path: withSingleLeadingSlash(groups.Path ?? '', 0) };
  };
}

/** The default pattern without a regex: `/api/v` in any letter case, digits, then a `/` and the rest. */
function matchDefaultBaseUri(pathname: string): VersionedPath | null {
  if (
    !pathname.startsWith(DEFAULT_PREFIX) &&
    pathname.slice(0, DEFAULT_PREFIX.length).toLowerCase() !== DEFAULT_PREFIX
  ) {
    return null;
  }
  let index = DEFAULT_PREFIX.length;
  let version = 0;
  for (let digit = pathname.charCodeAt(index) - DIGIT_0; digit >= 0 && digit <= 9;) {
    version = version * 10 + digit;
    digit = pathname.charCodeAt(++index) - DIGIT_0;
  }
  if (index === DEFAULT_PREFIX.length || pathname.charCodeAt(index) !== SLASH) return null;
  // The regex's `.` stops at line terminators, so such a path does not match the default either.
  if (hasLineTerminator(pathname, index)) return null;
  return { version, path: withSingleLeadingSlash(pathname, index) };
}

function namedGroupsOf(regex: RegExp): Set<string> {
  // The empty alternative always matches, and the result lists every named group of the pattern.
  return new Set(Object.keys(new RegExp(`(?:${regex.source})|`, regex.flags).exec('')?.groups ?? {}));
}

function requireNamedGroups(regex: RegExp): void {
  if (!namedGroupsOf(regex).has('Path')) {
    throw new ConfigurationError(`baseUriRegex ${String(regex)} lacks the named group Path.`);
  }
}

function parseVersion(digits: string | undefined): number | null {
  return digits !== undefined && /^[0-9]+$/.test(digits) ? Number(digits) : null;
}

/** The part of `text` from `from` on, with its leading slashes replaced by exactly one. */
function withSingleLeadingSlash(text: string, from: number): string {
  let start = from;
  while (text.charCodeAt(start) === SLASH) start++;
  return start === from + 1 ? text.slice(from) : '/' + text.slice(start);
}

function hasLineTerminator(text: string, from: number): boolean {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}
