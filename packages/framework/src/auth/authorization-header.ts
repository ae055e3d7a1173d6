// Parsing of the `Authorization` header: auth-scheme (RFC 7235), bearer token68 (RFC 6750) and Basic (RFC 7617).

import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import { Unauthorized } from '../errors.js';

export interface AuthorizationHeader {
  /** Lower-cased, since auth-scheme names are case-insensitive. */
  readonly scheme: string;
  readonly credentials: string;
}

export interface ClientSecretPair {
  readonly clientId: string;
  readonly clientSecret: string;
}

const BEARER_PREFIX = 'Bearer ';

/** Undefined when the header is absent or empty; a repeated header is rejected rather than guessed at. */
export function readAuthorization(headers: IncomingHttpHeaders): AuthorizationHeader | undefined {
  const value: unknown = headers.authorization;
  if (Array.isArray(value)) throw new Unauthorized('Multiple Authorization headers.');
  if (typeof value !== 'string' || value === '') return undefined;
  // The usual spelling of the usual scheme, without finding, slicing and lower-casing its name.
  if (value.startsWith(BEARER_PREFIX))
    return { scheme: 'bearer', credentials: value.slice(BEARER_PREFIX.length).trim() };
  const space = value.indexOf(' ');
  if (space === -1) return { scheme: value.toLowerCase(), credentials: '' };
  return { scheme: value.slice(0, space).toLowerCase(), credentials: value.slice(space + 1).trim() };
}

const EQUALS = 0x3d;
const isToken68Char = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/')
  isToken68Char[char.charCodeAt(0)] = 1;

/** `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`, checked without a regex: a bearer token is long. */
export function isToken68(credentials: string): boolean {
  let end = credentials.length;
  while (end > 0 && credentials.charCodeAt(end - 1) === EQUALS) end--;
  if (end === 0) return false;
  for (let index = 0; index < end; index++) {
    if (isToken68Char[credentials.charCodeAt(index)] !== 1) return false;
  }
  return true;
}

const PADDING = /=+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes `base64(user-id:password)`, splitting at the first colon; undefined when not strict base64 of UTF-8 with a colon. */
export function decodeBasicCredentials(credentials: string): ClientSecretPair | undefined {
  const bytes = Buffer.from(credentials, 'base64');
  // Node skips characters outside the alphabet and ignores stray bits; only the canonical spelling (padded or not) is strict.
  const canonical = bytes.toString('base64');
  if (credentials !== canonical && credentials !== canonical.replace(PADDING, '')) return undefined;
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}
