// POST /oauth/token: the client-credentials and refresh-token grants, issuing HS256 JWTs.

import { createJwtVerifier, OAuthError, OAuthToken, route, signToken } from '@edfi-api/framework';
import { hashKey, tokenLifetimeSeconds } from '../../config.js';

const grantedScope = 'read write';
const verifyRefreshToken = createJwtVerifier(hashKey);

function issue(clientId: string): OAuthToken {
  const accessToken = signToken(
    { client_id: clientId, scope: grantedScope },
    { hashKey, expiresIn: tokenLifetimeSeconds },
  );
  return new OAuthToken({
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: tokenLifetimeSeconds,
    scope: grantedScope,
  });
}

export const token = route.post('/oauth/token', { auth: ['client'], summary: 'Issue an access token' }, async (ctx) => {
  const form = ((await ctx.body()) ?? {}) as Record<string, unknown>;
  const clientId = ctx.auth.clientId ?? '';
  switch (form.grant_type) {
    case 'client_credentials':
      return issue(clientId);
    case 'refresh_token': {
      if (typeof form.refresh_token !== 'string')
        return new OAuthError('invalid_request', 'refresh_token is required.');
      try {
        const previous = verifyRefreshToken(form.refresh_token);
        if (previous.get('client_id') !== clientId) return new OAuthError('invalid_grant', 'Token of another client.');
      } catch {
        return new OAuthError('invalid_grant', 'The refresh token is invalid or expired.');
      }
      return issue(clientId);
    }
    default:
      return new OAuthError('unsupported_grant_type');
  }
});
