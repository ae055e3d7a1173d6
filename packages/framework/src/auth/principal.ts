// What client repositories (API key, Basic, client credentials) implement and may return.

import type { Authenticated, Principal } from '../types.js';

export const NO_SCOPES: readonly string[] = Object.freeze([]);

/** The principal of a public route, or of a request not yet authenticated. */
export const ANONYMOUS: Principal<undefined> = Object.freeze({
  scheme: 'none',
  scopes: NO_SCOPES,
  identity: undefined,
});

/**
 * What a client repository may return from a successful check; returning `false` or throwing rejects. Returning
 * `{ identity, … }` hands handlers that object as `ctx.identity`.
 */
export type ClientCheckResult<Identity = unknown> =
  void | boolean | { readonly clientId?: string; readonly scopes?: readonly string[] } | Authenticated<Identity>;

export type ValidateClientHook = (clientId: string) => void | Promise<void>;

export interface ClientRepository {
  /** Checks a client id and secret (Basic and client-credentials methods). */
  validate?(
    clientId: string,
    clientSecret: string,
    onValidateClient?: ValidateClientHook,
  ): ClientCheckResult | Promise<ClientCheckResult>;
  /** Checks an API key; may return the client id it belongs to. */
  validateApiKey?(
    apiKey: string,
    onValidateClient?: ValidateClientHook,
  ): ClientCheckResult | Promise<ClientCheckResult>;
}
