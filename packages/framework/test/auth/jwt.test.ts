import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJwtVerifier, signToken } from '../../src/auth/jwt.js';
import { Token } from '../../src/auth/token.js';
import { ConfigurationError, Unauthorized } from '../../src/errors.js';
import { HASH_KEY } from './auth-request.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_SECONDS = NOW / 1000;

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Builds a token by hand, for headers and signatures signToken would never produce. */
function handMadeToken(
  header: Record<string, unknown>,
  payload: unknown,
  sign: (input: string) => string = (input) => hmac('sha256', HASH_KEY, input),
): string {
  const input = `${base64url(header)}.${base64url(payload)}`;
  return `${input}.${sign(input)}`;
}

function hmac(algorithm: string, key: string, input: string): string {
  return createHmac(algorithm, key).update(input).digest('base64url');
}

function rejectionOf(verify: (token: string) => Token, token: string): Unauthorized {
  try {
    verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(Unauthorized);
    return error as Unauthorized;
  }
  throw new Error('expected the token to be rejected');
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('signToken', () => {
  it('signs HS256 with iat now and exp one hour later by default', () => {
    const token = signToken({ client_id: 'client-1', scope: 'read' }, { hashKey: HASH_KEY });
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ client_id: 'client-1', scope: 'read', iat: NOW_SECONDS, exp: NOW_SECONDS + 3600 });
  });

  it('sets exp from expiresIn and the registered claims from the options', () => {
    const token = signToken(
      { sub: 'from-claims', exp: 1 },
      { hashKey: HASH_KEY, expiresIn: 60, issuer: 'https://issuer.test', audience: 'api', subject: 'client-9' },
    );
    const claims = createJwtVerifier(HASH_KEY)(token).claims;
    expect(claims).toEqual({
      sub: 'client-9',
      exp: NOW_SECONDS + 60,
      iat: NOW_SECONDS,
      iss: 'https://issuer.test',
      aud: 'api',
    });
  });

  it('refuses a short key and a non-positive lifetime', () => {
    expect(() => signToken({}, { hashKey: 'too-short' })).toThrow(ConfigurationError);
    expect(() => signToken({}, { hashKey: HASH_KEY, expiresIn: 0 })).toThrow(ConfigurationError);
    expect(() => signToken({}, { hashKey: HASH_KEY, expiresIn: Number.NaN })).toThrow(ConfigurationError);
  });
});

describe('createJwtVerifier', () => {
  it('returns a Token with the claims and scopes of a valid token', () => {
    const token = signToken({ client_id: 'client-1', scope: ['read', 'write'] }, { hashKey: HASH_KEY });
    const verified = createJwtVerifier(HASH_KEY)(token);
    expect(verified).toBeInstanceOf(Token);
    expect(verified.get('client_id')).toBe('client-1');
    expect(verified.scopes).toEqual(['read', 'write']);
  });

  it('accepts a Buffer key of 32 bytes', () => {
    const key = Buffer.alloc(32, 7);
    const token = signToken({ sub: 'x' }, { hashKey: key });
    expect(createJwtVerifier(key)(token).get('sub')).toBe('x');
  });

  it('refuses keys shorter than 32 bytes at creation, counting UTF-8 bytes', () => {
    expect(() => createJwtVerifier('x'.repeat(31))).toThrow(ConfigurationError);
    expect(() => createJwtVerifier('x'.repeat(31))).toThrow('hashKey must be at least 32 bytes for HS256 (got 31).');
    expect(() => createJwtVerifier(Buffer.alloc(16))).toThrow(ConfigurationError);
    expect(() => createJwtVerifier('x'.repeat(32))).not.toThrow();
    expect(() => createJwtVerifier('é'.repeat(16))).not.toThrow();
  });

  it('refuses negative or non-finite options', () => {
    expect(() => createJwtVerifier(HASH_KEY, { leeway: -1 })).toThrow(ConfigurationError);
    expect(() => createJwtVerifier(HASH_KEY, { cacheSize: Number.POSITIVE_INFINITY })).toThrow(ConfigurationError);
  });

  describe('time claims', () => {
    it('rejects an expired token, with leeway as tolerance', () => {
      const token = signToken({}, { hashKey: HASH_KEY, expiresIn: 60 });
      vi.setSystemTime(NOW + 61_000);
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe('Expired token');
      expect(createJwtVerifier(HASH_KEY, { leeway: 5 })(token).get('exp')).toBe(NOW_SECONDS + 60);
    });

    it('rejects a token used before its nbf, with leeway as tolerance', () => {
      const token = handMadeToken({ alg: 'HS256' }, { nbf: NOW_SECONDS + 30, exp: NOW_SECONDS + 600 });
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe(
        'Cannot handle token with nbf prior to 2026-01-15T12:00:30.000Z',
      );
      expect(createJwtVerifier(HASH_KEY, { leeway: 30 })(token).get('nbf')).toBe(NOW_SECONDS + 30);
    });

    it('rejects a token issued in the future, with leeway as tolerance', () => {
      const token = handMadeToken({ alg: 'HS256' }, { iat: NOW_SECONDS + 10, exp: NOW_SECONDS + 600 });
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe(
        'Cannot handle token with iat prior to 2026-01-15T12:00:10.000Z',
      );
      expect(createJwtVerifier(HASH_KEY, { leeway: 10 })(token).get('iat')).toBe(NOW_SECONDS + 10);
    });

    it('rejects a non-numeric time claim as malformed', () => {
      const iat = handMadeToken({ alg: 'HS256' }, { iat: 'yesterday', exp: NOW_SECONDS + 600 });
      const exp = handMadeToken({ alg: 'HS256' }, { exp: 'tomorrow' });
      expect(rejectionOf(createJwtVerifier(HASH_KEY), iat).message).toBe('Malformed token');
      expect(rejectionOf(createJwtVerifier(HASH_KEY), exp).message).toBe('Malformed token');
    });

    it('requires exp by default and accepts its absence with requireExp: false', () => {
      const token = handMadeToken({ alg: 'HS256' }, { sub: 'x' });
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe('Missing exp claim');
      expect(createJwtVerifier(HASH_KEY, { requireExp: false })(token).get('sub')).toBe('x');
    });
  });

  describe('algorithm and signature', () => {
    const payload = { sub: 'attacker', exp: NOW_SECONDS + 600 };

    it('rejects alg none without a signature', () => {
      const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe('Signature verification failed');
    });

    it('rejects alg none even with a valid HS256 signature', () => {
      const token = handMadeToken({ alg: 'none' }, payload);
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe('Algorithm not allowed');
    });

    it('rejects other HMAC algorithms signed with the right key', () => {
      const token = handMadeToken({ alg: 'HS512' }, payload, (input) => hmac('sha512', HASH_KEY, input));
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe('Algorithm not allowed');
    });

    it('rejects algorithm confusion (an RS256 header over an HMAC signature)', () => {
      const token = handMadeToken({ alg: 'RS256' }, payload);
      expect(rejectionOf(createJwtVerifier(HASH_KEY), token).message).toBe('Algorithm not allowed');
    });

    it('rejects a tampered signature, a tampered payload and a wrong key', () => {
      const verify = createJwtVerifier(HASH_KEY);
      const token = signToken({ scope: 'read' }, { hashKey: HASH_KEY });
      const [header, body, signature] = token.split('.') as [string, string, string];
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      const escalated = base64url({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), scope: 'admin' });
      const otherKey = signToken({ scope: 'read' }, { hashKey: 'another-secret-of-at-least-32-bytes' });
      expect(rejectionOf(verify, `${header}.${body}.${flipped}`).message).toBe('Signature verification failed');
      expect(rejectionOf(verify, `${header}.${escalated}.${signature}`).message).toBe('Signature verification failed');
      expect(rejectionOf(verify, otherKey).message).toBe('Signature verification failed');
    });

    it('rejects malformed tokens', () => {
      const verify = createJwtVerifier(HASH_KEY);
      const validInput = `${base64url({ alg: 'HS256' })}.${base64url(payload)}`;
      for (const token of ['', 'abc', 'a.b', 'not.json.at-all', `${validInput} .sig`, `${validInput}.x.y`]) {
        expect(rejectionOf(verify, token).message, token).toBe('Malformed token');
      }
      // A signature outside the base64url alphabet is a signature failure, not a parse failure.
      expect(rejectionOf(verify, `${validInput}.sig=`).message).toBe('Signature verification failed');
      expect(rejectionOf(verify, handMadeToken({ alg: 'HS256' }, [1, 2])).message).toBe('Malformed token');
    });

    it('answers 401 errors', () => {
      expect(rejectionOf(createJwtVerifier(HASH_KEY), 'abc').status).toBe(401);
    });
  });

  describe('issuer and audience', () => {
    const verify = createJwtVerifier(HASH_KEY, { issuer: 'https://issuer.test', audience: 'api' });

    it('accepts the configured issuer and an audience string or array containing it', () => {
      const options = { hashKey: HASH_KEY, issuer: 'https://issuer.test' };
      expect(verify(signToken({}, { ...options, audience: 'api' })).get('aud')).toBe('api');
      expect(verify(signToken({}, { ...options, audience: ['other', 'api'] })).get('aud')).toEqual(['other', 'api']);
    });

    it('rejects another or a missing issuer', () => {
      expect(rejectionOf(verify, signToken({}, { hashKey: HASH_KEY, issuer: 'evil', audience: 'api' })).message).toBe(
        'Invalid issuer',
      );
      expect(rejectionOf(verify, signToken({}, { hashKey: HASH_KEY, audience: 'api' })).message).toBe('Invalid issuer');
    });

    it('rejects another or a missing audience', () => {
      const options = { hashKey: HASH_KEY, issuer: 'https://issuer.test' };
      expect(rejectionOf(verify, signToken({}, { ...options, audience: ['other'] })).message).toBe('Invalid audience');
      expect(rejectionOf(verify, signToken({}, options)).message).toBe('Invalid audience');
    });
  });

  describe('verification cache', () => {
    it('returns the same frozen claims for a repeated token', () => {
      const verify = createJwtVerifier(HASH_KEY);
      const token = signToken({ roles: ['a'] }, { hashKey: HASH_KEY });
      const first = verify(token);
      const second = verify(token);
      expect(second.claims).toEqual(first.claims);
      expect(Object.isFrozen(second.claims)).toBe(true);
      expect(() => (second.get('roles') as string[]).push('admin')).toThrow(TypeError);
    });

    it('freezes nested claims without a cache too', () => {
      const verify = createJwtVerifier(HASH_KEY, { cacheSize: 0 });
      const token = verify(
        signToken({ roles: ['a'], profile: { name: 'Ada', tags: [{ t: 1 }] } }, { hashKey: HASH_KEY }),
      );
      const profile = token.get('profile') as { tags: object[] };
      for (const value of [token.claims, token.get('roles'), profile, profile.tags, profile.tags[0]]) {
        expect(Object.isFrozen(value)).toBe(true);
      }
    });

    it('still rejects a cached token once it has expired', () => {
      const verify = createJwtVerifier(HASH_KEY);
      const token = signToken({}, { hashKey: HASH_KEY, expiresIn: 60 });
      expect(verify(token).get('exp')).toBe(NOW_SECONDS + 60);
      vi.setSystemTime(NOW + 61_000);
      expect(rejectionOf(verify, token).message).toBe('Expired token');
    });

    it('still rejects a forged token that differs only in its signature from a cached one', () => {
      const verify = createJwtVerifier(HASH_KEY);
      const token = signToken({}, { hashKey: HASH_KEY });
      verify(token);
      const forged = token.slice(0, token.lastIndexOf('.') + 1) + hmac('sha256', 'x'.repeat(32), 'forged');
      expect(rejectionOf(verify, forged).message).toBe('Signature verification failed');
    });

    it('can be turned off', () => {
      const verify = createJwtVerifier(HASH_KEY, { cacheSize: 0 });
      const token = signToken({ sub: 'x' }, { hashKey: HASH_KEY });
      expect(verify(token).get('sub')).toBe('x');
      expect(verify(token).get('sub')).toBe('x');
    });
  });
});
