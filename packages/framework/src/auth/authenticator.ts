// The per-route authentication chain: schemes tried in declaration order, then the route's required scopes.

import { ConfigurationError, Forbidden, TooManyRequests, Unauthorized, withoutStack } from '../errors.js';
import type { AuthScheme, Principal } from '../types.js';
import { NOT_AUTHED, rejectionMessage, type AuthLogger } from './auth-rejection.js';
import { challengeHeaders, type ChallengeHeaders } from './challenge.js';
import type { ClientCredentialSources } from './client-credentials.js';
import { createJwtVerifier, type JwtOptions } from './jwt.js';
import { ANONYMOUS, type ClientRepository, type ValidateClientHook } from './principal.js';
import { apiKeyScheme, type ApiKeyRepository } from './schemes/api-key.js';
import { basicScheme, type ClientSecretRepository } from './schemes/basic.js';
import { bearerScheme, type BearerVerifier, type DecodeTokenHook } from './schemes/bearer.js';
import { clientScheme } from './schemes/client.js';
import { ABSENT, type AttemptOutcome, type AuthRequest, type SchemeAttempt } from './scheme-attempt.js';

export type { AuthRequest } from './scheme-attempt.js';
export type { BearerVerifier, DecodeTokenHook } from './schemes/bearer.js';

export interface AuthOptions {
  clientRepository?: ClientRepository;
  /** HS256 secret for bearer JWTs (at least 32 bytes); enables the JWT verifier unless `bearerVerifier` is given. */
  hashKey?: string | Buffer;
  jwt?: JwtOptions;
  bearerVerifier?: BearerVerifier;
  /** Accept client credentials from the query string (legacy); default true, with a one-time deprecation warning. */
  allowClientCredentialsInQuery?: boolean;
  onDecodeToken?: DecodeTokenHook;
  onValidateClient?: ValidateClientHook;
  logger?: AuthLogger;
}

/**
 * A compiled chain for one route: the principal (synchronously when every scheme run answers so), or a promise of it
 * that rejects with Unauthorized (401) or Forbidden (403).
 */
export type AuthCheck = (req: AuthRequest) => Principal | Promise<Principal>;

export interface Authenticator {
  /** Compiles on first use per (schemes, scopes) array pair; pass the route's own arrays, or call compile() up front. */
  authenticate(schemes: readonly AuthScheme[], scopes: readonly string[], req: AuthRequest): Promise<Principal>;
  /** Builds the chain once (at route registration); throws ConfigurationError when a scheme lacks what it needs. */
  compile(schemes: readonly AuthScheme[], scopes?: readonly string[]): AuthCheck;
}

interface Step {
  readonly scheme: AuthScheme;
  /** Undefined for `none`. */
  readonly attempt: SchemeAttempt | undefined;
}

const MISSING_SCOPE = 'Token does not provide the required scope.';

export function createAuthenticator(options: AuthOptions): Authenticator {
  const attemptFor = schemeAttempts(options);
  // Keyed by array identity: a route passes the same arrays on every request, and no string key can collide.
  const compiled = new WeakMap<readonly AuthScheme[], WeakMap<readonly string[], AuthCheck>>();

  function compile(schemes: readonly AuthScheme[], scopes: readonly string[] = []): AuthCheck {
    if (schemes.length === 0) {
      throw new ConfigurationError("A route needs at least one auth scheme ('none' marks a public route).");
    }
    const steps: Step[] = schemes.map((scheme) => ({
      scheme,
      attempt: scheme === 'none' ? undefined : attemptFor(scheme),
    }));
    return chain(steps, [...scopes], challengeHeaders(schemes), options.logger);
  }

  return {
    compile,
    authenticate(schemes, scopes, req) {
      let byScopes = compiled.get(schemes);
      if (byScopes === undefined) {
        byScopes = new WeakMap();
        compiled.set(schemes, byScopes);
      }
      let check = byScopes.get(scopes);
      if (check === undefined) {
        check = compile(schemes, scopes);
        byScopes.set(scopes, check);
      }
      return Promise.resolve(check(req));
    },
  };
}

/** Builds each scheme's attempt once per authenticator, failing fast on a weak hashKey. */
function schemeAttempts(options: AuthOptions): (scheme: AuthScheme) => SchemeAttempt {
  const jwtVerifier = options.hashKey === undefined ? undefined : createJwtVerifier(options.hashKey, options.jwt);
  const verifier = options.bearerVerifier ?? jwtVerifier;
  const repository = options.clientRepository;
  const { onDecodeToken, onValidateClient, logger } = options;
  const sources: ClientCredentialSources = {
    allowQuery: options.allowClientCredentialsInQuery ?? true,
    onQueryUsed: once(() =>
      logger?.warn(
        'Client credentials were read from the query string, which is deprecated (RFC 6749 §2.3.1); ' +
          'send them in the Authorization header or the body, and set allowClientCredentialsInQuery: false.',
      ),
    ),
  };
  const built = new Map<AuthScheme, SchemeAttempt>();

  function build(scheme: AuthScheme): SchemeAttempt {
    switch (scheme) {
      case 'bearer':
        if (verifier === undefined) {
          throw new ConfigurationError("Auth scheme 'bearer' needs hashKey or bearerVerifier.");
        }
        return bearerScheme(verifier, onDecodeToken, verifier === jwtVerifier);
      case 'apiKey':
        if (!hasValidateApiKey(repository)) {
          throw new ConfigurationError("Auth scheme 'apiKey' needs a clientRepository with validateApiKey().");
        }
        return apiKeyScheme(repository, onValidateClient);
      case 'basic':
        return basicScheme(requireValidate(repository, scheme), onValidateClient);
      case 'client':
        return clientScheme(requireValidate(repository, scheme), sources, onValidateClient);
      default:
        throw new ConfigurationError(`Unknown auth scheme '${String(scheme)}'.`);
    }
  }

  return (scheme) => {
    let attempt = built.get(scheme);
    if (attempt === undefined) {
      attempt = build(scheme);
      built.set(scheme, attempt);
    }
    return attempt;
  };
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

function requireValidate(repository: ClientRepository | undefined, scheme: AuthScheme): ClientSecretRepository {
  if (!hasValidate(repository)) {
    throw new ConfigurationError(`Auth scheme '${scheme}' needs a clientRepository with validate().`);
  }
  return repository;
}

function hasValidate(repository: ClientRepository | undefined): repository is ClientSecretRepository {
  return typeof repository?.validate === 'function';
}

function hasValidateApiKey(repository: ClientRepository | undefined): repository is ApiKeyRepository {
  return typeof repository?.validateApiKey === 'function';
}

/** The latest rejection the chain met, and whether any refused a bearer token (for the challenge). */
interface Rejection {
  readonly message: string;
  readonly tokenRejected: boolean;
}

/**
 * The chain answers synchronously when every scheme it runs does (the JWT verifier, synchronous repositories), so the
 * common request pays for no promise; failures always come as a rejected promise, never as a throw.
 */
function chain(
  steps: readonly Step[],
  requiredScopes: readonly string[],
  challenges: ChallengeHeaders,
  logger: AuthLogger | undefined,
): AuthCheck {
  const accepted = new Set(steps.map((step) => step.scheme));
  accepted.delete('none');

  function withScopes(principal: Principal): Principal | Promise<Principal> {
    for (const scope of requiredScopes) {
      if (!principal.scopes.includes(scope)) return Promise.reject(withoutStack(() => new Forbidden(MISSING_SCOPE)));
    }
    return principal;
  }

  function rejected(previous: Rejection | undefined, scheme: AuthScheme, error: unknown): Rejection {
    const message = rejectionMessage(error, scheme, logger);
    return { message, tokenRejected: previous?.tokenRejected === true || scheme === 'bearer' };
  }

  function tryFrom(first: number, req: AuthRequest, rejection: Rejection | undefined): Principal | Promise<Principal> {
    for (let index = first; index < steps.length; index++) {
      const { scheme, attempt } = steps[index]!;
      if (attempt === undefined) {
        // Presented-but-rejected credentials must never fall through to anonymous access.
        if (rejection !== undefined) continue;
        return withScopes(ANONYMOUS);
      }
      let outcome: AttemptOutcome | Promise<AttemptOutcome>;
      try {
        outcome = attempt(req);
      } catch (error) {
        // A rate limit is not a rejection of the credentials: the client must wait, not try others.
        if (error instanceof TooManyRequests) return Promise.reject(error);
        rejection = rejected(rejection, scheme, error);
        continue;
      }
      if (outcome instanceof Promise) {
        const failed = rejection;
        return outcome.then(
          (settled) => (settled === ABSENT ? tryFrom(index + 1, req, failed) : withScopes(settled)),
          (error: unknown) =>
            error instanceof TooManyRequests
              ? Promise.reject(error)
              : tryFrom(index + 1, req, rejected(failed, scheme, error)),
        );
      }
      if (outcome !== ABSENT) return withScopes(outcome);
    }
    const headers = rejection?.tokenRejected === true ? challenges.tokenRejected : challenges.tokenAbsent;
    return Promise.reject(withoutStack(() => new Unauthorized(rejection?.message ?? NOT_AUTHED, { headers })));
  }

  return (req) => {
    const established = req.auth;
    return established !== undefined && accepted.has(established.scheme)
      ? withScopes(established)
      : tryFrom(0, req, undefined);
  };
}
