// The bearer scheme: `Authorization: Bearer <token68>`, verified by a pluggable verifier (the JWT one by default).

import { Unauthorized } from '../../errors.js';
import { isToken68, readAuthorization } from '../authorization-header.js';
import type { Principal } from '../principal.js';
import { ABSENT, type SchemeAttempt } from '../scheme-attempt.js';
import type { Token } from '../token.js';

/** Turns a presented bearer token into a Token, throwing to reject it; may look tokens up (opaque, revocable tokens). */
export type BearerVerifier = (token: string) => Token | Promise<Token>;

/** Called with every verified token; throwing rejects it. */
export type DecodeTokenHook = (token: Token) => void | Promise<void>;

export function bearerScheme(verify: BearerVerifier, onDecodeToken?: DecodeTokenHook): SchemeAttempt {
  return (req) => {
    const authorization = readAuthorization(req.headers);
    if (authorization?.scheme !== 'bearer') return ABSENT;
    if (!isToken68(authorization.credentials)) throw new Unauthorized('Malformed token');
    const verified = verify(authorization.credentials);
    // Stay synchronous for the common case (JWT verifier, no hook) to keep the hot path free of extra ticks.
    if (onDecodeToken === undefined && !isPromiseLike(verified)) return principalOf(verified);
    return decodeAsync(verified, onDecodeToken);
  };
}

function isPromiseLike(value: Token | PromiseLike<Token>): value is PromiseLike<Token> {
  return typeof (value as Partial<PromiseLike<Token>>).then === 'function';
}

async function decodeAsync(verified: Token | PromiseLike<Token>, onDecodeToken?: DecodeTokenHook): Promise<Principal> {
  const token = await verified;
  if (onDecodeToken !== undefined) await onDecodeToken(token);
  return principalOf(token);
}

function principalOf(token: Token): Principal {
  return { scheme: 'bearer', clientId: clientIdOf(token), token, scopes: token.scopes };
}

function clientIdOf(token: Token): string | undefined {
  const clientId = token.get('client_id');
  if (typeof clientId === 'string') return clientId;
  const subject = token.get('sub');
  return typeof subject === 'string' ? subject : undefined;
}
