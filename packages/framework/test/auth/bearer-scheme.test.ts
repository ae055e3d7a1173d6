import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator, type AuthOptions } from '../../src/auth/authenticator.js';
import { signToken } from '../../src/auth/jwt.js';
import { Token } from '../../src/auth/token.js';
import { Unauthorized } from '../../src/errors.js';
import { HASH_KEY, fakeRequest, rejectionOf } from './auth-request.js';

function bearerCheck(options: AuthOptions = {}) {
  return createAuthenticator({ hashKey: HASH_KEY, ...options }).compile(['bearer']);
}

function withToken(token: string, scheme = 'Bearer') {
  return fakeRequest({ headers: { authorization: `${scheme} ${token}` } });
}

describe('bearer scheme with the JWT verifier', () => {
  it('accepts a signed token, with its client_id, scopes and Token on the principal', async () => {
    const jwt = signToken({ client_id: 'client-1', sub: 'user-7', scope: 'read write' }, { hashKey: HASH_KEY });
    const principal = await bearerCheck()(withToken(jwt));
    expect(principal.scheme).toBe('bearer');
    expect(principal.clientId).toBe('client-1');
    expect(principal.scopes).toEqual(['read', 'write']);
    expect(principal.token).toBeInstanceOf(Token);
    expect(principal.token?.get('sub')).toBe('user-7');
  });

  it('takes the client id from sub when there is no client_id claim', async () => {
    const jwt = signToken({}, { hashKey: HASH_KEY, subject: 'client-2' });
    expect((await bearerCheck()(withToken(jwt))).clientId).toBe('client-2');
    const anonymous = signToken({ client_id: 5 }, { hashKey: HASH_KEY });
    expect((await bearerCheck()(withToken(anonymous))).clientId).toBeUndefined();
  });

  it('reads the scheme name case-insensitively', async () => {
    const jwt = signToken({ sub: 'x' }, { hashKey: HASH_KEY });
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect((await bearerCheck()(withToken(jwt, scheme))).clientId).toBe('x');
    }
  });

  it('passes on the verifier message for a bad token, with an invalid_token challenge', async () => {
    const error = await rejectionOf(bearerCheck()(withToken('abc.def.ghi')));
    expect(error).toBeInstanceOf(Unauthorized);
    expect(error.message).toBe('Malformed token');
    expect(error.headers).toEqual({ 'www-authenticate': 'Bearer error="invalid_token"' });
  });

  it('rejects a token that is not a single token68', async () => {
    // A signed token with a bad signature segment: the verifier alone would name it a signature failure.
    const jwt = signToken({ sub: 'x' }, { hashKey: HASH_KEY });
    for (const header of [
      'Bearer a b',
      'Bearer',
      'Bearer ab"c',
      `Bearer ${jwt} x`,
      `Bearer ${jwt}"`,
      `Bearer ${jwt}é`,
    ]) {
      const error = await rejectionOf(bearerCheck()(fakeRequest({ headers: { authorization: header } })));
      expect(error.message, header).toBe('Malformed token');
    }
  });

  it('skips requests without a bearer Authorization header', async () => {
    for (const headers of [{}, { authorization: 'Basic Y2xpZW50LTE6czNjcmV0' }, { authorization: '' }]) {
      const error = await rejectionOf(bearerCheck()(fakeRequest({ headers })));
      expect(error.message).toBe('Not authed.');
      expect(error.headers).toEqual({ 'www-authenticate': 'Bearer' });
    }
  });

  it('rejects repeated Authorization headers', async () => {
    const jwt = signToken({}, { hashKey: HASH_KEY });
    const request = fakeRequest({
      headers: { authorization: [`Bearer ${jwt}`, `Bearer ${jwt}`] as unknown as string },
    });
    expect((await rejectionOf(bearerCheck()(request))).message).toBe('Multiple Authorization headers.');
  });

  it('honours the jwt options', async () => {
    const jwt = signToken({}, { hashKey: HASH_KEY, issuer: 'someone-else' });
    const error = await rejectionOf(bearerCheck({ jwt: { issuer: 'https://issuer.test' } })(withToken(jwt)));
    expect(error.message).toBe('Invalid issuer');
  });
});

describe('bearer scheme with a custom verifier (opaque tokens)', () => {
  const opaque = '0123456789abcdef0123456789abcdef';
  const verifier = async (token: string) => {
    if (token !== opaque) throw new Unauthorized('Invalid token.');
    return new Token({ client_id: 'client-9', scope: ['read'] });
  };

  it('uses the custom verifier in preference to the JWT one', async () => {
    const principal = await bearerCheck({ bearerVerifier: verifier })(withToken(opaque));
    expect(principal).toMatchObject({ scheme: 'bearer', clientId: 'client-9', scopes: ['read'] });
  });

  it('works without a hashKey, and with a synchronous verifier', async () => {
    const check = createAuthenticator({ bearerVerifier: () => new Token({ sub: 's' }) }).compile(['bearer']);
    expect((await check(withToken(opaque))).clientId).toBe('s');
  });

  it('is never handed a token that is not a single token68', async () => {
    const accepting = vi.fn(() => new Token({ sub: 's' }));
    const error = await rejectionOf(bearerCheck({ bearerVerifier: accepting })(withToken('ab"c')));
    expect(error.message).toBe('Malformed token');
    expect(accepting).not.toHaveBeenCalled();
  });

  it('forwards an HttpError message and hides other errors', async () => {
    const logger = { warn: vi.fn() };
    expect((await rejectionOf(bearerCheck({ bearerVerifier: verifier })(withToken('nope')))).message).toBe(
      'Invalid token.',
    );
    const leaky = () => {
      throw new Error('redis timeout');
    };
    expect((await rejectionOf(bearerCheck({ bearerVerifier: leaky, logger })(withToken(opaque)))).message).toBe(
      'Not authed.',
    );
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});

describe('onDecodeToken', () => {
  const jwt = signToken({ sub: 'client-1' }, { hashKey: HASH_KEY });

  it('is called with every verified token', async () => {
    const onDecodeToken = vi.fn();
    await bearerCheck({ onDecodeToken })(withToken(jwt));
    expect(onDecodeToken).toHaveBeenCalledOnce();
    expect(onDecodeToken.mock.calls[0]![0]).toBeInstanceOf(Token);
    expect((onDecodeToken.mock.calls[0]![0] as Token).get('sub')).toBe('client-1');
  });

  it('is awaited when async, and rejects the token by throwing', async () => {
    const revoked = async (token: Token) => {
      await Promise.resolve();
      if (token.get('sub') === 'client-1') throw new Unauthorized('Token revoked.');
    };
    const error = await rejectionOf(bearerCheck({ onDecodeToken: revoked })(withToken(jwt)));
    expect(error.message).toBe('Token revoked.');
    expect(error.headers).toEqual({ 'www-authenticate': 'Bearer error="invalid_token"' });
  });

  it('hides the message of an unexposed hook error', async () => {
    const failing = () => {
      throw new Error('internal detail');
    };
    expect((await rejectionOf(bearerCheck({ onDecodeToken: failing })(withToken(jwt)))).message).toBe('Not authed.');
  });
});
