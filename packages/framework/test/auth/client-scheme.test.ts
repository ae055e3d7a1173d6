import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator, type AuthOptions } from '../../src/auth/authenticator.js';
import { InvalidInput } from '../../src/errors.js';
import { basicHeader, fakeRequest, recordingRepository, rejectionOf } from './auth-request.js';

function clientCheck(options: AuthOptions = {}) {
  return createAuthenticator({ clientRepository: recordingRepository(), ...options }).compile(['client']);
}

const validBody = { client_id: 'client-1', client_secret: 's3cret', grant_type: 'client_credentials' };

describe('client scheme sources', () => {
  it('reads the Basic header first and does not touch the body', async () => {
    const request = fakeRequest({ headers: { authorization: basicHeader('client-1', 's3cret') }, body: validBody });
    expect(await clientCheck()(request)).toEqual({ scheme: 'client', clientId: 'client-1', scopes: ['read'] });
    expect(request.bodyReads()).toBe(0);
  });

  it('reads client_id and client_secret from a JSON or form body', async () => {
    const form = Object.assign(Object.create(null) as object, validBody);
    for (const body of [validBody, form]) {
      const request = fakeRequest({ body });
      expect(await clientCheck()(request)).toEqual({ scheme: 'client', clientId: 'client-1', scopes: ['read'] });
      expect(request.bodyReads()).toBe(1);
    }
  });

  it('falls back to the query string when allowed, warning once', async () => {
    const logger = { warn: vi.fn() };
    const check = clientCheck({ logger });
    const request = fakeRequest({ query: { client_id: 'client-1', client_secret: 's3cret' } });
    expect((await check(request)).clientId).toBe('client-1');
    expect((await check(request)).clientId).toBe('client-1');
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(logger.warn.mock.calls[0]![0]).toContain('allowClientCredentialsInQuery: false');
  });

  it('ignores the query string when allowClientCredentialsInQuery is false', async () => {
    const repository = recordingRepository();
    const check = clientCheck({ clientRepository: repository, allowClientCredentialsInQuery: false });
    const request = fakeRequest({ query: { client_id: 'client-1', client_secret: 's3cret' } });
    const error = await rejectionOf(check(request));
    expect(error.message).toBe('Not authed.');
    expect(error.headers).toEqual({ 'www-authenticate': 'Basic realm="api"' });
    expect(repository.calls).toEqual([]);
  });

  it('treats a body that fails to parse as absent', async () => {
    const request = fakeRequest({
      bodyError: new InvalidInput('Body payload contains invalid JSON.'),
      query: { client_id: 'client-1', client_secret: 's3cret' },
    });
    expect((await clientCheck()(request)).clientId).toBe('client-1');
    const withoutQuery = fakeRequest({ bodyError: new InvalidInput('Body payload contains invalid JSON.') });
    expect((await rejectionOf(clientCheck()(withoutQuery))).message).toBe('Not authed.');
  });

  it('treats a non-object body and non-string fields as absent', async () => {
    for (const body of [undefined, null, 'client-1:s3cret', [validBody], { client_id: 1, client_secret: 2 }]) {
      expect((await rejectionOf(clientCheck()(fakeRequest({ body })))).message).toBe('Not authed.');
    }
  });

  it('accepts "0" as an id and a secret', async () => {
    const repository = recordingRepository({ validate: (id, secret) => id === '0' && secret === '0' });
    const request = fakeRequest({ body: { client_id: '0', client_secret: '0' } });
    expect((await clientCheck({ clientRepository: repository })(request)).clientId).toBe('0');
  });
});

describe('client scheme takes id and secret from the same source', () => {
  it('does not complete a Basic id with a secret from the body or query', async () => {
    const request = fakeRequest({
      headers: { authorization: basicHeader('client-1', '') },
      body: { client_secret: 's3cret' },
      query: { client_secret: 's3cret' },
    });
    expect((await rejectionOf(clientCheck()(request))).message).toBe('Client secret missing.');
    expect(request.bodyReads()).toBe(0);
  });

  it('does not complete a body id with a query secret, nor the reverse', async () => {
    const idInBody = fakeRequest({ body: { client_id: 'client-1' }, query: { client_secret: 's3cret' } });
    const secretInBody = fakeRequest({ body: { client_secret: 's3cret' }, query: { client_id: 'client-1' } });
    expect((await rejectionOf(clientCheck()(idInBody))).message).toBe('Client secret missing.');
    expect((await rejectionOf(clientCheck()(secretInBody))).message).toBe('Client ID missing.');
  });

  it('names the missing half in the query too', async () => {
    const request = fakeRequest({ query: { client_id: '', client_secret: 's3cret' } });
    expect((await rejectionOf(clientCheck()(request))).message).toBe('Client ID missing.');
  });

  it('prefers a complete body over the query', async () => {
    const repository = recordingRepository();
    const request = fakeRequest({ body: validBody, query: { client_id: 'other', client_secret: 'other' } });
    await clientCheck({ clientRepository: repository })(request);
    expect(repository.calls[0]!.args).toEqual(['client-1', 's3cret']);
  });

  it('rejects a malformed Basic header instead of looking elsewhere', async () => {
    const request = fakeRequest({ headers: { authorization: 'Basic %%%' }, body: validBody });
    expect((await rejectionOf(clientCheck()(request))).message).toBe('Malformed Basic credentials.');
    expect(request.bodyReads()).toBe(0);
  });
});
