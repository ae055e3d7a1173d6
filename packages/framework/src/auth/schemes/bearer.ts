// The bearer scheme: `Authorization: Bearer <token68>`, verified by a pluggable verifier (the JWT one by default).

import { Unauthorized } from '../../errors.js';
import type { Authenticated, Principal } from '../../types.js';
import { isToken68, readAuthorization } from '../authorization-header.js';
import { NO_SCOPES } from '../principal.js';
import { ABSENT, type SchemeAttempt } from '../scheme-attempt.js';
import { Token } from '../token.js';

/** What a verifier accepts a token as: its claims (a Token), or an identity for `ctx.identity` with its scopes. */
export type Verified<Identity = unknown> = Token | Authenticated<Identity>;

/**
 * Turns a presented bearer token into a Token or an `Authenticated` identity, throwing to reject it; may look tokens
 * up (opaque, revocable tokens).
 */
export type BearerVerifier<Identity = unknown> = (token: string) => Verified<Identity> | Promise<Verified<Identity>>;

/** Called with every verified token; throwing rejects it. */
export type DecodeTokenHook = (token: Token) => void | Promise<void>;

/**
 * `verifierAcceptsOnlyToken68`: the verifier never accepts a token outside the token68 syntax (the JWT verifier, whose
 * base64url segments are a subset), so the syntax is checked only once it rejects one, to name that rejection
 * 'Malformed token' all the same; any other verifier is never handed such a token.
 */
export function bearerScheme(
  verify: BearerVerifier,
  onDecodeToken: DecodeTokenHook | undefined,
  verifierAcceptsOnlyToken68: boolean,
): SchemeAttempt {
  return (req) => {
    const authorization = readAuthorization(req.headers);
    if (authorization?.scheme !== 'bearer') return ABSENT;
    const credentials = authorization.credentials;
    if (!verifierAcceptsOnlyToken68 && !isToken68(credentials)) throw malformedToken();
    let verified: ReturnType<BearerVerifier>;
    try {
      verified = verify(credentials);
    } catch (error) {
      throw isToken68(credentials) ? error : malformedToken();
    }
    // Stay synchronous for the common case (JWT verifier, no hook) to keep the hot path free of extra ticks.
    if (onDecodeToken === undefined && !isPromiseLike(verified)) return principalOf(verified);
    return decodeAsync(verified, onDecodeToken);
  };
}

function malformedToken(): Unauthorized {
  return new Unauthorized('Malformed token');
}

function isPromiseLike(value: Verified | PromiseLike<Verified>): value is PromiseLike<Verified> {
  return typeof (value as Partial<PromiseLike<Verified>>).then === 'function';
}

async function decodeAsync(
  verified: Verified | PromiseLike<Verified>,
  onDecodeToken?: DecodeTokenHook,
): Promise<Principal> {
  const result = await verified;
  if (onDecodeToken !== undefined && result instanceof Token) await onDecodeToken(result);
  return principalOf(result);
}

function principalOf(verified: Verified): Principal {
  if (!(verified instanceof Token)) {
    const { identity, clientId, scopes } = verified;
    return { scheme: 'bearer', clientId, scopes: scopes ?? NO_SCOPES, identity };
  }
  return {
    scheme: 'bearer',
    clientId: clientIdOf(verified),
    token: verified,
    scopes: verified.scopes,
    identity: verified,
  };
}

function clientIdOf(token: Token): string | undefined {
  const clientId = token.get('client_id');
  if (typeof clientId === 'string') return clientId;
  const subject = token.get('sub');
  return typeof subject === 'string' ? subject : undefined;
}
