// POST /oauth/token: the client-credentials grant of contract §2, issuing opaque bearer tokens within the per-client
// limit, optionally narrowed to one of the client's education organizations by `scope`.
import { OAuthError, OAuthToken, route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import { ApiProblem } from '../../api/problems.js';
import type { Store } from '../../store/store.js';
import { DEFAULT_TOKEN_LIFETIME_SECONDS, DEFAULT_TOKENS_PER_CLIENT, issueAccessToken } from '../access-tokens.js';
import { grantOf } from '../client-grants.js';
import { authenticateClient } from '../clients.js';
import { readRequestFields } from './request-fields.js';
import { checkTokenRequest, TOKEN_REQUEST_FIELDS } from './token-request.js';
import { associatedScope, parseScope } from './token-scope.js';

export interface OAuthContext {
  readonly store: Pick<Store, 'findClient' | 'findClientApplication' | 'saveAccessToken'>;
  /** Default 1800 (the ODS's shipped 30 minutes). */
  readonly tokenLifetimeSeconds?: number;
  /** Unexpired tokens a client may hold; default 15 (the ODS's shipped limit). */
  readonly tokensPerClient?: number;
  /** Clock in epoch milliseconds (tests). */
  readonly now?: () => number;
}

function tooManyTokens(limit: number): ApiProblem {
  return new ApiProblem('tooManyTokens', {
    errors: [
      `Too many access tokens have been requested (limit is ${limit}). Access tokens should be reused until they expire.`,
    ],
    raisedBeforeController: true,
  });
}

export function oauthRoutes(context: OAuthContext): RouteDefinition[] {
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

  async function issueToken(ctx: RequestContext): Promise<OAuthToken | OAuthError> {
    const fields = await readRequestFields(ctx, TOKEN_REQUEST_FIELDS);
    if (fields === undefined) return new OAuthError('invalid_request');
    const request = checkTokenRequest(ctx.headers.authorization, fields);
    if (request instanceof OAuthError) return request;
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
  }

  return [route.post('/oauth/token', { auth: ['none'], summary: 'Client-credentials access token' }, issueToken)];
}
