// Public surface of the framework.

export { createServer, type ApiServer, type ServerOptions } from './server.js';
export { route, routes, type RouteBuilder } from './routes/route.js';
export type { DefaultAuthOf, IdentitiesOf, IdentityMap } from './auth/identities.js';
export { Get, Post, Put, Patch, Delete, Head, Options, Auth, ApiScope, Parameter } from './routes/decorators.js';
export type {
  AuthScheme,
  Authenticated,
  HttpMethod,
  IncomingRequestContext,
  ParameterDeclaration,
  Principal,
  QueryParams,
  RequestContext,
} from './types.js';
export type { RouteDefinition, RouteHandler, RouteInfo, RouteOptions } from './routes/route-definition.js';
export type { ParamsOf } from './routes/path-params.js';
export type { InjectRequest, InjectResponse } from './http/inject.js';
export type { ResponseLike } from './http/response.js';
export type { ErrorRenderer, RequestHook } from './http/dispatch.js';
export type { ResponseEvent, ResponseObserver } from './http/node-adapter.js';
export { ApiResponse, json, RawResponse, raw } from './http/api-response.js';
export { Payload } from './http/payload.js';
export { PrincipalToken } from './http/tokens.js';
export {
  HttpError,
  NotFound,
  MethodNotAllowed,
  Unauthorized,
  Forbidden,
  InvalidInput,
  ClientClosedRequest,
  TooManyRequests,
  PayloadTooLarge,
  UnsupportedMediaType,
  InternalError,
  ConfigurationError,
  type HttpErrorOptions,
} from './errors.js';
export type { ClientRepository, ClientCheckResult, ValidateClientHook } from './auth/principal.js';
export { Token } from './auth/token.js';
export { signToken, createJwtVerifier, type JwtOptions } from './auth/jwt.js';
export { safeEqual } from './auth/safe-equal.js';
export { OAuthToken, OAuthError } from './auth/oauth-response.js';
export type { BearerVerifier, Verified } from './auth/schemes/bearer.js';
export { Container, Scope, type Lifetime, type Provider, type RegisterOptions } from './container/container.js';
export { injectable, type Injectable } from './container/injectable.js';
export {
  createToken,
  type ContainerLike,
  type ScopeLike,
  type InjectionToken,
  type NamedToken,
  type Constructor,
} from './container/container-like.js';
export { generateOpenApi, type OpenApiDocument, type OpenApiOptions } from './openapi/generate.js';
export { discoverHandlerModules, type HandlerModule } from './discovery/discover.js';
export { docsPageRoutes, type DocsDocument, type DocsPageOptions } from './docs/docs-routes.js';
export type { Logger } from './logger.js';
