// Public surface of security: API clients and their applications, the OAuth endpoints, the bearer-token verifier, the
// caller it establishes and the claim-set policies.
export { createBearerVerifier, type AccessTokenVerifier, type BearerVerifierOptions } from './bearer-verifier.js';
export { callerOf, SYSTEM_CALLER, type AccessTokenClaims, type Caller } from './caller.js';
export { oauthRoutes, type OAuthContext } from './oauth/token-route.js';
export { tokenInfoRoutes, type TokenInfoContext } from './oauth/token-info-route.js';
export {
  authenticateClient,
  createClient,
  DuplicateClientError,
  type ClientStore,
  type CreatedClient,
  type NewClientOptions,
} from './clients.js';
export { ClientCreationError, type ApplicationOptions } from './client-applications.js';
export { listClients, type ClientDescription, type ClientSummary } from './client-descriptions.js';
export {
  SANDBOX_APPLICATION,
  SANDBOX_CLAIM_SET,
  SANDBOX_EDUCATION_ORGANIZATION_IDS,
  SANDBOX_NAMESPACE_PREFIXES,
} from './client-grants.js';
export {
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  DEFAULT_TOKENS_PER_CLIENT,
  hashAccessToken,
  normalizeAccessToken,
} from './access-tokens.js';
export * from './claims/index.js';
export * from './authorization/index.js';
