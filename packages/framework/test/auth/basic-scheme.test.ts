import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticator.js';
import type { ClientCheckResult } from '../../src/auth/principal.js';
import { basicHeader, fakeRequest, recordingRepository, rejectionOf } from './auth-request.js';

function basicCheck(repository = recordingRepository()) {
  return createAuthenticator({ clientRepository: repository }).compile(['basic']);
}

function withAuthorization(authorization: string) {
  return fakeRequest({ headers: { authorization } });
}

/** A repository that accepts any credentials and remembers the last pair. */
function echoRepository() {
  const seen: { clientId?: string; clientSecret?: string } = {};
  return {
    seen,
    repository: recordingRepository({
      validate: (clientId: string, clientSecret: string): ClientCheckResult => {
        seen.clientId = clientId;
        seen.clientSecret = clientSecret;
        return true;
      },
    }),
  };
}

describe('basic scheme', () => {
  it('accepts credentials the repository validates, with the scopes it returns', async () => {
    const repository = recordingRepository();
    const principal = await basicCheck(repository)(withAuthorization(basicHeader('client-1', 's3cret')));
    expect(principal).toEqual({ scheme: 'basic', clientId: 'client-1', scopes: ['read'] });
    expect(repository.calls).toEqual([{ method: 'validate', args: ['client-1', 's3cret'], hookPassed: false }]);
  });

  it('rejects credentials the repository refuses, with a Basic challenge', async () => {
    const error = await rejectionOf(basicCheck()(withAuthorization(basicHeader('client-1', 'wrong'))));
    expect(error.message).toBe('Not authed.');
    expect(error.headers).toEqual({ 'www-authenticate': 'Basic realm="api"' });
  });

  it('splits at the first colon, decodes UTF-8 and reads the scheme case-insensitively', async () => {
    const { seen, repository } = echoRepository();
    await basicCheck(repository)(withAuthorization(basicHeader('jürgen', 'pa:ss:wörd').replace('Basic', 'bAsIc')));
    expect(seen).toEqual({ clientId: 'jürgen', clientSecret: 'pa:ss:wörd' });
  });

  it('round-trips any id without a colon and any secret', async () => {
    const { seen, repository } = echoRepository();
    const check = basicCheck(repository);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1 }).filter((id) => !id.includes(':')),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        async (clientId, clientSecret) => {
          const principal = await check(withAuthorization(basicHeader(clientId, clientSecret)));
          expect(principal.clientId).toBe(clientId);
          expect(seen).toEqual({ clientId, clientSecret });
        },
      ),
    );
  });

  it('accepts "0" as an id and as a secret', async () => {
    const { seen, repository } = echoRepository();
    expect((await basicCheck(repository)(withAuthorization(basicHeader('0', '0')))).clientId).toBe('0');
    expect(seen).toEqual({ clientId: '0', clientSecret: '0' });
  });

  it('accepts base64 without padding', async () => {
    const { seen, repository } = echoRepository();
    const unpadded = Buffer.from('id:secret1').toString('base64').replace(/=+$/, '');
    await basicCheck(repository)(withAuthorization(`Basic ${unpadded}`));
    expect(seen).toEqual({ clientId: 'id', clientSecret: 'secret1' });
  });

  it('rejects anything but strict base64 of UTF-8 text with a colon', async () => {
    const invalidUtf8 = Buffer.from([0x69, 0x64, 0x3a, 0xff, 0xfe]).toString('base64');
    const noColon = Buffer.from('client-1').toString('base64');
    const withSpace = `${basicHeader('client-1', 's3cret').slice(6, 10)} ${basicHeader('client-1', 's3cret').slice(10)}`;
    for (const credentials of ['!!!!', 'Y2xp*ZW50', invalidUtf8, noColon, withSpace, 'QR==', 'Q===']) {
      const error = await rejectionOf(basicCheck()(withAuthorization(`Basic ${credentials}`)));
      expect(error.message, credentials).toBe('Malformed Basic credentials.');
    }
  });

  it('names the missing half, and skips an empty pair', async () => {
    expect((await rejectionOf(basicCheck()(withAuthorization(basicHeader('', 's3cret'))))).message).toBe(
      'Client ID missing.',
    );
    expect((await rejectionOf(basicCheck()(withAuthorization(basicHeader('client-1', ''))))).message).toBe(
      'Client secret missing.',
    );
    const repository = recordingRepository();
    expect((await rejectionOf(basicCheck(repository)(withAuthorization(basicHeader('', ''))))).message).toBe(
      'Not authed.',
    );
    expect(repository.calls).toEqual([]);
  });

  it('skips requests without a Basic Authorization header', async () => {
    const repository = recordingRepository();
    for (const headers of [{}, { authorization: 'Bearer abc' }]) {
      expect((await rejectionOf(basicCheck(repository)(fakeRequest({ headers })))).message).toBe('Not authed.');
    }
    expect(repository.calls).toEqual([]);
  });
});
