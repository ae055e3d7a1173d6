import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator, type AuthOptions } from '../../src/auth/authenticator.js';
import { signToken } from '../../src/auth/jwt.js';
import type { ClientCheckResult, ValidateClientHook } from '../../src/auth/principal.js';
import { Forbidden, Unauthorized } from '../../src/errors.js';
import type { AuthScheme } from '../../src/types.js';
import { HASH_KEY, basicHeader, fakeRequest, recordingRepository, rejectionOf } from './auth-request.js';

function check(schemes: AuthScheme[], scopes: string[] = [], options: AuthOptions = {}) {
  return createAuthenticator({ clientRepository: recordingRepository(), hashKey: HASH_KEY, ...options }).compile(
    schemes,
    scopes,
  );
}

const jwt = signToken({ client_id: 'jwt-client', scope: 'read write' }, { hashKey: HASH_KEY });
const bearer = `Bearer ${jwt}`;

describe('scheme order and absence', () => {
  it('stops at the first scheme that succeeds, in declaration order', async () => {
    const bearerVerifier = vi.fn();
    const request = fakeRequest({ headers: { 'x-api-key': 'key-1', authorization: bearer } });
    expect((await check(['apiKey', 'bearer'], [], { bearerVerifier })(request)).scheme).toBe('apiKey');
    expect(bearerVerifier).not.toHaveBeenCalled();
    expect((await check(['bearer', 'apiKey'])(request)).scheme).toBe('bearer');
  });

  it('skips schemes whose credentials are absent', async () => {
    const request = fakeRequest({ headers: { authorization: bearer } });
    const principal = await check(['apiKey', 'basic', 'bearer'])(request);
    expect(principal).toMatchObject({ scheme: 'bearer', clientId: 'jwt-client' });
  });

  it('tries the next scheme after a rejection', async () => {
    const request = fakeRequest({ headers: { 'x-api-key': 'wrong', authorization: bearer } });
    expect((await check(['apiKey', 'bearer'])(request)).scheme).toBe('bearer');
  });

  it('answers 401 with the last rejection message', async () => {
    const repository = recordingRepository({
      validateApiKey: () => {
        throw new Unauthorized('Unknown API key.');
      },
    });
    const request = fakeRequest({ headers: { 'x-api-key': 'k', authorization: 'Bearer not-a-jwt' } });
    const error = await rejectionOf(check(['apiKey', 'bearer'], [], { clientRepository: repository })(request));
    expect(error.message).toBe('Malformed token');
    const reversed = await rejectionOf(check(['bearer', 'apiKey'], [], { clientRepository: repository })(request));
    expect(reversed.message).toBe('Unknown API key.');
  });

  it('answers 401 Not authed. when every scheme is absent', async () => {
    const error = await rejectionOf(check(['apiKey', 'bearer', 'basic', 'client'])(fakeRequest()));
    expect(error).toBeInstanceOf(Unauthorized);
    expect(error.status).toBe(401);
    expect(error.message).toBe('Not authed.');
  });
});

describe('the none scheme', () => {
  it('lets anonymous requests through', async () => {
    expect(await check(['none'])(fakeRequest())).toEqual({ scheme: 'none', scopes: [] });
    expect(await check(['apiKey', 'none'])(fakeRequest())).toEqual({ scheme: 'none', scopes: [] });
  });

  it('still prefers presented valid credentials', async () => {
    const request = fakeRequest({ headers: { 'x-api-key': 'key-1' } });
    expect((await check(['apiKey', 'none'])(request)).scheme).toBe('apiKey');
  });

  it('never lets rejected credentials fall through to anonymous access', async () => {
    const badKey = await rejectionOf(check(['apiKey', 'none'])(fakeRequest({ headers: { 'x-api-key': 'wrong' } })));
    expect(badKey.message).toBe('Not authed.');
    const badToken = await rejectionOf(
      check(['bearer', 'none'])(fakeRequest({ headers: { authorization: 'Bearer x.y.z' } })),
    );
    expect(badToken.message).toBe('Malformed token');
    const badBasic = await rejectionOf(
      check(['basic', 'none'])(fakeRequest({ headers: { authorization: basicHeader('client-1', '') } })),
    );
    expect(badBasic.message).toBe('Client secret missing.');
  });

  it('lets a later scheme succeed after a rejection, even with none in between', async () => {
    const request = fakeRequest({ headers: { 'x-api-key': 'wrong', authorization: bearer } });
    expect((await check(['apiKey', 'none', 'bearer'])(request)).scheme).toBe('bearer');
  });
});

describe('WWW-Authenticate challenges', () => {
  async function challengeOf(schemes: AuthScheme[], headers: Record<string, string> = {}) {
    return (await rejectionOf(check(schemes)(fakeRequest({ headers })))).headers['www-authenticate'];
  }

  it('sends Bearer, with error="invalid_token" only when a token was presented', async () => {
    expect(await challengeOf(['bearer'])).toBe('Bearer');
    expect(await challengeOf(['bearer'], { authorization: 'Bearer bad' })).toBe('Bearer error="invalid_token"');
    expect(await challengeOf(['apiKey', 'bearer'], { 'x-api-key': 'wrong' })).toBe('Bearer');
  });

  it('sends Basic realm="api" for basic and client routes', async () => {
    expect(await challengeOf(['basic'])).toBe('Basic realm="api"');
    expect(await challengeOf(['client'])).toBe('Basic realm="api"');
  });

  it('joins both challenges when both apply', async () => {
    expect(await challengeOf(['basic', 'bearer'])).toBe('Bearer, Basic realm="api"');
    expect(await challengeOf(['client', 'bearer'], { authorization: 'Bearer bad' })).toBe(
      'Bearer error="invalid_token", Basic realm="api"',
    );
  });

  it('sends none for API-key-only routes', async () => {
    expect(await challengeOf(['apiKey'])).toBeUndefined();
    expect(await challengeOf(['apiKey', 'none'], { 'x-api-key': 'wrong' })).toBeUndefined();
  });
});

describe('scopes', () => {
  it('requires every listed scope from the bearer token (AND)', async () => {
    const request = fakeRequest({ headers: { authorization: bearer } });
    expect((await check(['bearer'], ['read', 'write'])(request)).scopes).toEqual(['read', 'write']);
    const error = await rejectionOf(check(['bearer'], ['read', 'admin'])(request));
    expect(error).toBeInstanceOf(Forbidden);
    expect(error.status).toBe(403);
    expect(error.message).toBe('Token does not provide the required scope.');
  });

  it('accepts a scope claim given as an array', async () => {
    const arrayScopes = signToken({ scope: ['read', 'admin'] }, { hashKey: HASH_KEY });
    const request = fakeRequest({ headers: { authorization: `Bearer ${arrayScopes}` } });
    expect((await check(['bearer'], ['admin'])(request)).scopes).toEqual(['read', 'admin']);
  });

  it('uses the scopes a repository returns for other schemes', async () => {
    const apiKey = fakeRequest({ headers: { 'x-api-key': 'key-1' } });
    expect((await check(['apiKey'], ['write'])(apiKey)).clientId).toBe('client-1');
    const basic = fakeRequest({ headers: { authorization: basicHeader('client-1', 's3cret') } });
    expect((await rejectionOf(check(['basic'], ['write'])(basic))).status).toBe(403);
  });

  it('refuses anonymous access to a route with scopes', async () => {
    expect((await rejectionOf(check(['none'], ['read'])(fakeRequest()))).status).toBe(403);
  });

  it('does not try the next scheme when the first succeeds without the scope', async () => {
    const request = fakeRequest({ headers: { 'x-api-key': 'key-1', authorization: bearer } });
    expect((await rejectionOf(check(['basic', 'bearer', 'apiKey'], ['admin'])(request))).status).toBe(403);
  });
});

describe('onValidateClient', () => {
  const requests: Record<'apiKey' | 'basic' | 'client', ReturnType<typeof fakeRequest>> = {
    apiKey: fakeRequest({ headers: { 'x-api-key': 'key-1' } }),
    basic: fakeRequest({ headers: { authorization: basicHeader('client-1', 's3cret') } }),
    client: fakeRequest({ body: { client_id: 'client-1', client_secret: 's3cret' } }),
  };

  it('is called by the framework with the client id after every successful client check', async () => {
    for (const scheme of ['apiKey', 'basic', 'client'] as const) {
      const onValidateClient = vi.fn();
      const repository = recordingRepository();
      await check([scheme], [], { onValidateClient, clientRepository: repository })(requests[scheme]);
      expect(onValidateClient.mock.calls, scheme).toEqual([['client-1']]);
      expect(repository.calls[0]!.hookPassed, scheme).toBe(true);
    }
  });

  it('is not called twice when the repository already called it', async () => {
    const onValidateClient = vi.fn(async () => {});
    const repository = recordingRepository({
      validate: async (_id: string, _secret: string, hook?: ValidateClientHook): Promise<ClientCheckResult> => {
        await hook?.('client-1');
        return true;
      },
    });
    await check(['basic'], [], { onValidateClient, clientRepository: repository })(requests.basic);
    expect(onValidateClient).toHaveBeenCalledOnce();
  });

  it('is not called for a rejected client, nor for an API key without a client id', async () => {
    const onValidateClient = vi.fn();
    const wrong = fakeRequest({ headers: { authorization: basicHeader('client-1', 'wrong') } });
    await rejectionOf(check(['basic'], [], { onValidateClient })(wrong));
    const anonymousKey = recordingRepository({ validateApiKey: () => true });
    await check(['apiKey'], [], { onValidateClient, clientRepository: anonymousKey })(requests.apiKey);
    expect(onValidateClient).not.toHaveBeenCalled();
  });

  it('rejects the client by throwing, synchronously or asynchronously', async () => {
    const suspended = async () => {
      throw new Unauthorized('Client suspended.');
    };
    const broken = () => {
      throw new Error('audit log unavailable');
    };
    const first = await rejectionOf(check(['client'], [], { onValidateClient: suspended })(requests.client));
    expect(first.message).toBe('Client suspended.');
    const logger = { warn: vi.fn() };
    const second = await rejectionOf(check(['basic'], [], { onValidateClient: broken, logger })(requests.basic));
    expect(second.message).toBe('Not authed.');
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});
