// Runs a client repository check (API key, Basic or client credentials) and turns its answer into a principal.

import { Unauthorized } from '../errors.js';
import { NOT_AUTHED } from './auth-rejection.js';
import type { Authenticated, AuthScheme, Principal } from '../types.js';
import { NO_SCOPES, type ClientCheckResult, type ValidateClientHook } from './principal.js';

export type RepositoryCheck = (
  onValidateClient: ValidateClientHook | undefined,
) => ClientCheckResult | Promise<ClientCheckResult>;

/**
 * `false` or a throw rejects. After success the framework calls `onValidateClient(clientId)` itself, unless the
 * repository (which also receives the hook, as PHP-style repositories expect) already called it for that client.
 */
export async function runClientCheck(
  scheme: AuthScheme,
  check: RepositoryCheck,
  presentedClientId: string | undefined,
  onValidateClient: ValidateClientHook | undefined,
): Promise<Principal> {
  let validatedByRepository: string | undefined;
  const hookForRepository: ValidateClientHook | undefined =
    onValidateClient &&
    ((clientId) => {
      const pending = onValidateClient(clientId);
      if (pending === undefined) {
        validatedByRepository = clientId;
        return;
      }
      return Promise.resolve(pending).then(() => {
        validatedByRepository = clientId;
      });
    });

  const result = await check(hookForRepository);
  if (result === false) throw new Unauthorized(NOT_AUTHED);
  const details: Partial<Authenticated<unknown>> | undefined =
    typeof result === 'object' && result !== null ? result : undefined;
  const clientId = details?.clientId ?? presentedClientId;
  if (onValidateClient !== undefined && clientId !== undefined && validatedByRepository !== clientId) {
    await onValidateClient(clientId);
  }
  return { scheme, clientId, scopes: details?.scopes ?? NO_SCOPES, identity: details?.identity };
}
