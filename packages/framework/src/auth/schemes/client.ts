// The client-credentials scheme: id and secret from the Basic header, the body or (legacy) the query string.

import { findClientCredentials, type ClientCredentialSources } from '../client-credentials.js';
import { runClientCheck } from '../client-check.js';
import type { ValidateClientHook } from '../principal.js';
import { ABSENT, type SchemeAttempt } from '../scheme-attempt.js';
import type { ClientSecretRepository } from './basic.js';

export function clientScheme(
  repository: ClientSecretRepository,
  sources: ClientCredentialSources,
  onValidateClient?: ValidateClientHook,
): SchemeAttempt {
  return async (req) => {
    const pair = await findClientCredentials(req, sources);
    if (pair === undefined) return ABSENT;
    const { clientId, clientSecret } = pair;
    return runClientCheck(
      'client',
      (hook) => repository.validate(clientId, clientSecret, hook),
      clientId,
      onValidateClient,
    );
  };
}
