import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticator.js';
import { InternalError, Unauthorized } from '../../src/errors.js';
import { fakeRequest, recordingRepository, rejectionOf } from './auth-request.js';

function apiKeyCheck(repository = recordingRepository(), logger = { warn: vi.fn() }) {
  return createAuthenticator({ clientRepository: repository, logger }).compile(['apiKey']);
}

describe('apiKey scheme', () => {
  it('accepts a key the repository validates, taking its client id and scopes', async () => {
    const repository = recordingRepository();
    const principal = await apiKeyCheck(repository)(fakeRequest({ headers: { 'x-api-key': 'key-1' } }));
    expect(principal).toEqual({ scheme: 'apiKey', clientId: 'client-1', scopes: ['read', 'write'] });
    expect(repository.calls).toEqual([{ method: 'validateApiKey', args: ['key-1'], hookPassed: false }]);
  });

  it('accepts a key when the repository returns nothing, with no client id', async () => {
    const repository = recordingRepository({ validateApiKey: () => undefined });
    const principal = await apiKeyCheck(repository)(fakeRequest({ headers: { 'x-api-key': 'anything' } }));
    expect(principal).toEqual({ scheme: 'apiKey', clientId: undefined, scopes: [] });
  });

  it('skips an absent or empty header (401 Not authed., no challenge)', async () => {
    for (const headers of [{}, { 'x-api-key': '' }]) {
      const error = await rejectionOf(apiKeyCheck()(fakeRequest({ headers })));
      expect(error).toBeInstanceOf(Unauthorized);
      expect(error.message).toBe('Not authed.');
      expect(error.headers).toEqual({});
    }
  });

  it('rejects repeated headers, as an array or joined by node:http', async () => {
    const repository = recordingRepository();
    for (const value of [['key-1', 'key-2'], 'key-1, key-2']) {
      const error = await rejectionOf(apiKeyCheck(repository)(fakeRequest({ headers: { 'x-api-key': value } })));
      expect(error.message).toBe('Multiple API keys.');
    }
    expect(repository.calls).toEqual([]);
  });

  it('rejects with Not authed. when the repository returns false', async () => {
    const error = await rejectionOf(apiKeyCheck()(fakeRequest({ headers: { 'x-api-key': 'wrong' } })));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Not authed.');
  });

  it('forwards the message of an HttpError or an error marked expose: true', async () => {
    const withHttpError = recordingRepository({
      validateApiKey: () => {
        throw new Unauthorized('API key revoked.');
      },
    });
    const withExposed = recordingRepository({
      validateApiKey: async () => {
        throw Object.assign(new Error('API key expired.'), { expose: true });
      },
    });
    const request = fakeRequest({ headers: { 'x-api-key': 'k' } });
    expect((await rejectionOf(apiKeyCheck(withHttpError)(request))).message).toBe('API key revoked.');
    expect((await rejectionOf(apiKeyCheck(withExposed)(request))).message).toBe('API key expired.');
  });

  it('hides other errors behind Not authed. and logs them', async () => {
    const databaseDown = new Error('connect ECONNREFUSED 10.0.0.5:5432');
    const logger = { warn: vi.fn() };
    const failing = recordingRepository({
      validateApiKey: () => {
        throw databaseDown;
      },
    });
    const hidden = recordingRepository({
      validateApiKey: () => {
        throw new InternalError('SQL failed');
      },
    });
    const request = fakeRequest({ headers: { 'x-api-key': 'k' } });
    expect((await rejectionOf(apiKeyCheck(failing, logger)(request))).message).toBe('Not authed.');
    expect((await rejectionOf(apiKeyCheck(hidden, logger)(request))).message).toBe('Not authed.');
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn.mock.calls[0]![1]).toBe(databaseDown);
  });
});
