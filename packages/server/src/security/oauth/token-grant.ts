// The client-credentials grant of contract §2 once the request has been read (rows 9–12 of §2.3): the client
// authenticated, the requested scope checked against its application, and an opaque bearer token issued within the
// per-client limit, optionally narrowed to one of the client's education organizations.
import { OAuthError, OAuthToken } from '@edfi-api/framework';
import { ApiProblem } from '../../api/problems.js';
import type { ClientAdministration, TokenStore } from '../../store/store.js';
import { DEFAULT_TOKEN_LIFETIME_SECONDS, DEFAULT_TOKENS_PER_CLIENT, issueAccessToken } from '../access-tokens.js';
import { grantOf } from '../client-grants.js';
import { authenticateClient } from '../clients.js';
import { associatedScope, parseScope } from './token-scope.js';

export interface ClientCredentialsRequest {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The requested scope as sent; undefined when none was requested. */
  readonly scope: string | undefined;
}

export interface TokenGrantContext {
  readonly store: Pick<ClientAdministration, 'findClient' | 'findClientApplication'> &
    Pick<TokenStore, 'saveAccessToken'>;
  /** Default 1800 (the ODS's shipped 30 minutes). */
  readonly tokenLifetimeSeconds?: number;
  /** Unexpired tokens a client may hold; default 15 (the ODS's shipped limit). */
  readonly tokensPerClient?: number;
  /** Clock in epoch milliseconds (tests). */
  readonly now?: () => number;
}

/** The token, or the OAuth error the ODS answers; throws the 429 problem when the client holds too many tokens. */
export type TokenGrant = (request: ClientCredentialsRequest) => Promise<OAuthToken | OAuthError>;

function tooManyTokens(limit: number): ApiProblem {
  return new ApiProblem('tooManyTokens', {
    errors: [
      `Too many access tokens have been requested (limit is ${limit}). Access tokens should be reused until they expire.`,
    ],
    raisedBeforeController: true,
  });
}

export function createTokenGrant(context: TokenGrantContext): TokenGrant {
  const { store } = context;
  const lifetime = context.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
  const limit = context.tokensPerClient ?? DEFAULT_TOKENS_PER_CLIENT;
  const now = context.now ?? Date.now;

  /** Rows 10–11: the requested scope, checked against the client's application. */
  async function scopeOf(clientKey: string, scope: string): Promise<number | OAuthError> {
    const id = parseScope(scope);
    if (id instanceof OAuthError) return id;
    return associatedScope(id, grantOf(await store.findClientApplication(clientKey)).educationOrganizationIds);
  }

  return async (request) => {
    const client = await authenticateClient(store, request.clientId, request.clientSecret);
    if (client === undefined) return new OAuthError('invalid_client', undefined, 401);
    const { scope } = request;
    const educationOrganizationId = scope === undefined ? undefined : await scopeOf(client.key, scope);
    if (educationOrganizationId instanceof OAuthError) return educationOrganizationId;
    const accessToken = await issueAccessToken(store, {
      clientKey: client.key,
      lifetimeSeconds: lifetime,
      perClientLimit: limit,
      educationOrganizationId,
      now: now(),
    });
    if (accessToken === undefined) throw tooManyTokens(limit);
    return new OAuthToken({
      access_token: accessToken,
      expires_in: lifetime,
      token_type: 'bearer',
      ...(scope === undefined ? {} : { scope: scope.trim() }),
    });
  };
}
