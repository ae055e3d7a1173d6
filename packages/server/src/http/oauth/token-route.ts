// POST /oauth/token: the client-credentials grant of contract §2; reads and checks the request (§2.3 rows 1–8), then
// lets security grant the token, within the failure limits of credential checks.
import { OAuthError, route, type RequestContext, type RouteDefinition } from '@edfi-api/framework';
import { createTokenGrant, type TokenGrantContext } from '../../security/index.js';
import { addressOf, throttledChecks } from '../credential-checks.js';
import { readRequestFields } from './request-fields.js';
import { checkTokenRequest, TOKEN_REQUEST_FIELDS } from './token-request.js';

export function oauthRoutes(context: TokenGrantContext): RouteDefinition[] {
  const grant = createTokenGrant(context);
  const checked = throttledChecks();

  async function issueToken(ctx: RequestContext) {
    const fields = await readRequestFields(ctx, TOKEN_REQUEST_FIELDS);
    if (fields === undefined) return new OAuthError('invalid_request');
    const request = checkTokenRequest(ctx.headers.authorization, fields);
    if (request instanceof OAuthError) return request;
    return checked(
      request.clientId,
      addressOf(ctx),
      () => grant(request),
      (answer) => !(answer instanceof OAuthError && answer.body.error === 'invalid_client'),
    );
  }

  return [route.post('/oauth/token', { auth: ['none'], summary: 'Client-credentials access token' }, issueToken)];
}
