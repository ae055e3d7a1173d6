// The Basic scheme (RFC 7617): `Authorization: Basic base64(id:secret)`, checked by `clientRepository.validate`.

import { Unauthorized } from '../../errors.js';
import { decodeBasicCredentials, readAuthorization } from '../authorization-header.js';
import { completePair } from '../client-credentials.js';
import { runClientCheck } from '../client-check.js';
import type { ClientRepository, ValidateClientHook } from '../principal.js';
import { ABSENT, type SchemeAttempt } from '../scheme-attempt.js';

export type ClientSecretRepository = Required<Pick<ClientRepository, 'validate'>>;

export function basicScheme(repository: ClientSecretRepository, onValidateClient?: ValidateClientHook): SchemeAttempt {
  return (req) => {
    const authorization = readAuthorization(req.headers);
    if (authorization?.scheme !== 'basic') return ABSENT;
    const decoded = decodeBasicCredentials(authorization.credentials);
    if (decoded === undefined) throw new Unauthorized('Malformed Basic credentials.');
    const pair = completePair(decoded.clientId, decoded.clientSecret);
    if (pair === undefined) return ABSENT;
    const { clientId, clientSecret } = pair;
    return runClientCheck(
      'basic',
      (hook) => repository.validate(clientId, clientSecret, hook),
      clientId,
      onValidateClient,
    );
  };
}
