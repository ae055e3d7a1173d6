import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticator.js';
import type { AuthScheme } from '../../src/types.js';
import { ConfigurationError } from '../../src/errors.js';
import { HASH_KEY, fakeRequest, recordingRepository } from './auth-request.js';

describe('createAuthenticator configuration', () => {
  it('fails fast when hashKey is shorter than 32 bytes', () => {
    expect(() => createAuthenticator({ hashKey: 'short-key' })).toThrow(ConfigurationError);
    expect(() => createAuthenticator({ hashKey: Buffer.alloc(31) })).toThrow(
      'hashKey must be at least 32 bytes for HS256 (got 31).',
    );
  });

  it('checks the key even when a custom bearer verifier is configured', () => {
    expect(() => createAuthenticator({ hashKey: 'short-key', bearerVerifier: () => Promise.reject() })).toThrow(
      ConfigurationError,
    );
  });

  it('refuses to compile a scheme that lacks what it needs', () => {
    const bare = createAuthenticator({});
    expect(() => bare.compile(['bearer'])).toThrow("Auth scheme 'bearer' needs hashKey or bearerVerifier.");
    expect(() => bare.compile(['apiKey'])).toThrow(
      "Auth scheme 'apiKey' needs a clientRepository with validateApiKey().",
    );
    expect(() => bare.compile(['basic'])).toThrow("Auth scheme 'basic' needs a clientRepository with validate().");
    expect(() => bare.compile(['client'])).toThrow("Auth scheme 'client' needs a clientRepository with validate().");
    expect(() => bare.compile(['none'])).not.toThrow();
  });

  it('refuses an empty or unknown scheme list', () => {
    const authenticator = createAuthenticator({ clientRepository: recordingRepository(), hashKey: HASH_KEY });
    expect(() => authenticator.compile([])).toThrow(ConfigurationError);
    expect(() => authenticator.compile(['session' as AuthScheme])).toThrow("Unknown auth scheme 'session'.");
  });

  it('authenticate() gives the same answers as a compiled check', async () => {
    const authenticator = createAuthenticator({ clientRepository: recordingRepository() });
    const request = fakeRequest({ headers: { 'x-api-key': 'key-1' } });
    const compiled = await authenticator.compile(['apiKey'], ['read'])(request);
    expect(await authenticator.authenticate(['apiKey'], ['read'], request)).toEqual(compiled);
    expect(await authenticator.authenticate(['apiKey'], ['read'], request)).toEqual(compiled);
  });
});
