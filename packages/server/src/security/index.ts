// Public surface of security: API clients and their applications, token grant and introspection (the OAuth endpoints'
// logic; the routes are in http/oauth/), the bearer-token verifier (the caller a token stands for) and the claim-set
// policies.
export {
  createBearerVerifier,
  DEFAULT_TOKEN_CACHE_TTL_SECONDS,
  type AccessTokenVerifier,
  type AuthenticatedCaller,
  type BearerVerifierOptions,
} from './bearer-verifier.js';
export {
  createTokenGrant,
  type ClientCredentialsRequest,
  type TokenGrant,
  type TokenGrantContext,
} from './oauth/token-grant.js';
export {
  createTokenIntrospection,
  type TokenInfoContext,
  type TokenIntrospection,
} from './oauth/token-introspection.js';
export type { TokenInfo } from './oauth/token-info.js';
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
export { UnknownClientError, updateClient, type ClientChanges, type ClientUpdateStore } from './client-updates.js';
export * from './claim-sets/index.js';
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
export { CredentialThrottle, TooManyFailures } from './credential-throttle.js';
export { HashPoolFull } from './hash-pool.js';
