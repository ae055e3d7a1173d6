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
 * Without a hook, a synchronous repository gets a synchronous answer.
 */
export function runClientCheck(
  scheme: AuthScheme,
  check: RepositoryCheck,
  presentedClientId: string | undefined,
  onValidateClient: ValidateClientHook | undefined,
): Principal | Promise<Principal> {
  if (onValidateClient !== undefined) return checkWithHook(scheme, check, presentedClientId, onValidateClient);
  const result = check(undefined);
  return result instanceof Promise
    ? result.then((settled) => principalOf(scheme, settled, presentedClientId))
    : principalOf(scheme, result, presentedClientId);
}

async function checkWithHook(
  scheme: AuthScheme,
  check: RepositoryCheck,
  presentedClientId: string | undefined,
  onValidateClient: ValidateClientHook,
): Promise<Principal> {
  let validatedByRepository: string | undefined;
  const hookForRepository: ValidateClientHook = (clientId) => {
    const pending = onValidateClient(clientId);
    if (pending === undefined) {
      validatedByRepository = clientId;
      return;
    }
    return Promise.resolve(pending).then(() => {
      validatedByRepository = clientId;
    });
  };
  const principal = principalOf(scheme, await check(hookForRepository), presentedClientId);
  if (principal.clientId !== undefined && validatedByRepository !== principal.clientId) {
    await onValidateClient(principal.clientId);
  }
  return principal;
}

function principalOf(scheme: AuthScheme, result: ClientCheckResult, presentedClientId: string | undefined): Principal {
  if (result === false) throw new Unauthorized(NOT_AUTHED);
  const details: Partial<Authenticated<unknown>> | undefined =
    typeof result === 'object' && result !== null ? result : undefined;
  const clientId = details?.clientId ?? presentedClientId;
  return { scheme, clientId, scopes: details?.scopes ?? NO_SCOPES, identity: details?.identity };
}
