// Who made the request, as established by the route's authentication chain.

import type { AuthScheme } from '../routes/route-definition.js';
import type { Token } from './token.js';

export interface Principal {
  readonly scheme: AuthScheme;
  readonly clientId?: string;
  /** The verified bearer token (JWT claims or what a custom verifier returned). */
  readonly token?: Token;
  readonly scopes: readonly string[];
}

/** What a client repository may return from a successful check; returning `false` or throwing rejects. */
export type ClientCheckResult = void | boolean | { readonly clientId?: string; readonly scopes?: readonly string[] };

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
