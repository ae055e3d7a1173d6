// The `WWW-Authenticate` challenges a 401 carries, derived from the route's schemes (RFC 7235, RFC 6750 §3).

import type { AuthScheme } from '../types.js';

export interface ChallengeHeaders {
  /** When no bearer token was presented (RFC 6750 §3.1: no error code then). */
  readonly tokenAbsent: Readonly<Record<string, string>>;
  readonly tokenRejected: Readonly<Record<string, string>>;
}

/** Precomputes both variants; API-key-only routes get no challenge, since no standard scheme describes them. */
export function challengeHeaders(schemes: readonly AuthScheme[]): ChallengeHeaders {
  const bearer = schemes.includes('bearer');
  const basic = schemes.includes('basic') || schemes.includes('client');
  return {
    tokenAbsent: header(bearer ? 'Bearer' : undefined, basic),
    tokenRejected: header(bearer ? 'Bearer error="invalid_token"' : undefined, basic),
  };
}

function header(bearerChallenge: string | undefined, basic: boolean): Readonly<Record<string, string>> {
  const challenges = [bearerChallenge, basic ? 'Basic realm="api"' : undefined].filter((c) => c !== undefined);
  const headers: Record<string, string> = {};
  if (challenges.length > 0) headers['www-authenticate'] = challenges.join(', ');
  return Object.freeze(headers);
}
