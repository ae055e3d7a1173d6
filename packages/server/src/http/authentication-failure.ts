// Why a bearer authentication failed, in the words of the ODS (`errors[0]` of the 401 body, contract §2.5),
// worked out from the request's Authorization header.
import type { IncomingHttpHeaders } from 'node:http';
import { parseResourceId } from '../api/index.js';

/** `scheme [credentials]`, scheme as an RFC 7230 token; anything else cannot be parsed. */
const AUTHORIZATION = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:\s+(.*?))?\s*$/;

/**
 * The failure visible in the header alone (missing, unknown scheme, empty or non-GUID token); undefined when the
 * header holds a well-formed bearer token, so only the token lookup can have rejected it.
 */
function authorizationHeaderFailure(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  const match = typeof value === 'string' ? AUTHORIZATION.exec(value) : null;
  if (match === null) return 'Authorization header is missing.';
  if (match[1]?.toLowerCase() !== 'bearer') return 'Unknown Authorization header scheme.';
  const token = match[2] ?? '';
  if (token === '') return 'Missing Authorization header bearer token value.';
  return parseResourceId(token) === undefined ? 'Invalid Authorization header.' : undefined;
}

/** The bearer token of a request the framework authenticated (the header is then well formed). */
export function bearerTokenOf(headers: IncomingHttpHeaders): string {
  const value = headers.authorization;
  return (typeof value === 'string' ? AUTHORIZATION.exec(value)?.[2] : undefined) ?? '';
}

export function authenticationFailureOf(headers: IncomingHttpHeaders): string {
  return authorizationHeaderFailure(headers) ?? 'Invalid token';
}
