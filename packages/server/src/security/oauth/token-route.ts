// POST /oauth/token: the client-credentials grant of contract §2, issuing opaque bearer tokens.
import { OAuthError, OAuthToken, route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import type { Store } from '../../store/store.js';
import { DEFAULT_TOKEN_LIFETIME_SECONDS, issueAccessToken } from '../access-tokens.js';
import { authenticateClient } from '../clients.js';
import { readTokenFields } from './token-fields.js';
import { checkTokenRequest } from './token-request.js';
import { checkScope } from './token-scope.js';

export interface OAuthContext {
  readonly store: Pick<Store, 'findClient' | 'saveAccessToken'>;
  /** Default 1800 (the ODS's shipped 30 minutes). */
  readonly tokenLifetimeSeconds?: number;
}

export function oauthRoutes(context: OAuthContext): RouteDefinition[] {
  const { store } = context;
  const lifetime = context.tokenLifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;

  async function issueToken(ctx: RequestContext): Promise<OAuthToken | OAuthError> {
    const fields = await readTokenFields(ctx);
    if (fields instanceof OAuthError) return fields;
    const request = checkTokenRequest(ctx.headers.authorization, fields);
    if (request instanceof OAuthError) return request;
    const client = await authenticateClient(store, request.clientId, request.clientSecret);
    if (client === undefined) return new OAuthError('invalid_client', undefined, 401);
    const scope = request.scope;
    const scopeRejection = scope === undefined ? undefined : checkScope(scope);
    if (scopeRejection !== undefined) return scopeRejection;
    const accessToken = await issueAccessToken(store, client.key, lifetime);
    return new OAuthToken({
      access_token: accessToken,
      expires_in: lifetime,
      token_type: 'bearer',
      ...(scope === undefined ? {} : { scope: scope.trim() }),
    });
  }

  return [route.post('/oauth/token', { auth: ['none'], summary: 'Client-credentials access token' }, issueToken)];
}
