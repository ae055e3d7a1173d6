// The API-key scheme: header `x-api-key`, checked by `clientRepository.validateApiKey`.

import { Unauthorized } from '../../errors.js';
import { runClientCheck } from '../client-check.js';
import type { ClientRepository, ValidateClientHook } from '../principal.js';
import { ABSENT, type SchemeAttempt } from '../scheme-attempt.js';

export type ApiKeyRepository = Required<Pick<ClientRepository, 'validateApiKey'>>;

export function apiKeyScheme(repository: ApiKeyRepository, onValidateClient?: ValidateClientHook): SchemeAttempt {
  return (req) => {
    const apiKey: unknown = req.headers['x-api-key'];
    if (apiKey === undefined || apiKey === '') return ABSENT;
    // node:http joins repeated custom headers with ", "; either way the caller sent more than one key.
    if (typeof apiKey !== 'string' || apiKey.includes(', ')) throw new Unauthorized('Multiple API keys.');
    return runClientCheck('apiKey', (hook) => repository.validateApiKey(apiKey, hook), undefined, onValidateClient);
  };
}
