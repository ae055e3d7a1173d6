// Public surface of security: API clients, the OAuth token endpoint and the bearer-token verifier.
export { createBearerVerifier, type AccessTokenClaims, type BearerVerifierOptions } from './bearer-verifier.js';
export { oauthRoutes, type OAuthContext } from './oauth/token-route.js';
export {
  authenticateClient,
  createClient,
  ClientCreationError,
  type ClientStore,
  type CreatedClient,
  type NewClientOptions,
} from './clients.js';
export { DEFAULT_TOKEN_LIFETIME_SECONDS, hashAccessToken } from './access-tokens.js';
