// The Ed-Fi API server: the framework server mounted at the base path, with the data, OAuth, metadata and (when an
// admin credential is configured) admin routes, and every error rendered as the ODS renders it.
import { createServer, type ApiServer, type Logger, type ResponseObserver } from '@edfi-api/framework';
import { getModelRegistry, type ModelRegistry } from '../model/index.js';
import type { Authorize } from '../api/index.js';
import {
  createAuthorizer,
  createBearerVerifier,
  type AccessTokenVerifier,
  type BearerVerifierOptions,
  type TokenGrantContext,
} from '../security/index.js';
import { authenticationOptions } from './authentication.js';
import type { Store } from '../store/store.js';
import type { AdminCredentials } from './admin/admin-credentials.js';
import { adminRoutes } from './admin/admin-routes.js';
import { profileRoutes } from './admin/profile-routes.js';
import { ProfileCatalog } from '../profiles/index.js';
import { isUnknownResourcePath } from './data/data-request.js';
import { dataRoutes } from './data/routes.js';
import { compositeMetadataDocuments } from './composites/composite-metadata.js';
import { compositeRoutes } from './composites/composite-routes.js';
import { compositeCategoriesOf, type CompiledCategory } from '../composites/index.js';
import { metaRoutes, normalizeBasePath, type TrustProxy } from './meta/index.js';
import { tokenInfoRoutes } from './oauth/token-info-route.js';
import { oauthRoutes } from './oauth/token-route.js';
import { createProblemRenderer } from './problem-details.js';

export interface EdFiAppOptions {
  readonly store: Store;
  /** The model served; defaults to the committed DS 5.2 + TPDM model. */
  readonly registry?: ModelRegistry;
  /** Where the API is mounted; default `/v7.3/api`. */
  readonly basePath?: string;
  readonly logger?: Logger;
  /** Called after each response the node handler writes (the request log). */
  readonly onResponse?: ResponseObserver;
  /** Lifetime of issued access tokens; default 1800 s. */
  readonly tokenLifetimeSeconds?: number;
  /** Unexpired tokens a client may hold; default 15. */
  readonly tokensPerClient?: number;
  /** How long a node trusts a token it found without asking the store again (revocation delay); default 60 s. */
  readonly tokenCacheTtlSeconds?: number;
  /** Data authorization; default the claim sets and strategies (contract §8). Tests may pass `allowEveryAction`. */
  readonly authorize?: Authorize;
  /** The ODS `OwnershipBasedAuthorization` feature (off by default): enforce OwnershipBased strategies. */
  readonly ownershipBasedAuthorization?: boolean;
  /** Enables the admin API (`{base}/admin/clients`) for this Basic credential; off when absent. */
  readonly admin?: AdminCredentials;
  /** Serve the documentation page (Swagger UI) at `{base}/docs`; default true. */
  readonly docs?: boolean;
  /** Where `/oauth/token` finds clients and saves tokens; default the store (an instance: its tenant's stores). */
  readonly tokenStore?: TokenGrantContext['store'];
  /** Verifies bearer tokens; default one over the store, caching for `tokenCacheTtlSeconds`. */
  readonly bearerVerifier?: AccessTokenVerifier;
  /** Which `X-Forwarded-*` headers build absolute URLs (`--trust-proxy`); none by default. */
  readonly trustProxy?: TrustProxy;
  /** The composite categories served; default those of `model/composites.json`. */
  readonly compositeCategories?: readonly CompiledCategory[];
}

export const DEFAULT_BASE_PATH = '/v7.3/api';

/** Kestrel's default request-body limit, which the ODS does not change (contract §9.10). */
const BODY_LIMIT = 30_000_000;

/** Every request under the base path is version 1 of our routes; the root itself (with or without `/`) is `/`. */
export function baseUriRegexFor(basePath: string): RegExp {
  const escaped = basePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}(?<Path>/.*)?$`, 'i');
}

export function tokenCacheOf({
  tokenCacheTtlSeconds: seconds,
}: Pick<EdFiAppOptions, 'tokenCacheTtlSeconds'>): BearerVerifierOptions {
  return seconds === undefined ? {} : { cacheTtlMs: seconds * 1000 };
}

/** The API, and the admin API on a server of its own when it is served on another port (`--admin-port`). */
export interface EdFiApps {
  readonly api: ApiServer;
  readonly admin?: ApiServer;
}

export async function createEdFiApp(options: EdFiAppOptions): Promise<ApiServer> {
  return (await createEdFiApps(options, false)).api;
}

/** With `separateAdmin`, the admin routes (when an admin credential is given) go to `admin` instead of `api`. */
export async function createEdFiApps(options: EdFiAppOptions, separateAdmin: boolean): Promise<EdFiApps> {
  const { store } = options;
  const registry = options.registry ?? getModelRegistry();
  const basePath = normalizeBasePath(options.basePath ?? DEFAULT_BASE_PATH);
  const logger = options.logger ?? console;
  const { admin, tokenLifetimeSeconds, tokensPerClient, trustProxy } = options;
  const verifier = options.bearerVerifier ?? createBearerVerifier(store, tokenCacheOf(options));
  const profiles = new ProfileCatalog(store, registry);
  const frameworkServer = (withAdmin: boolean) =>
    createServer({
      baseUriRegex: baseUriRegexFor(basePath),
      ...authenticationOptions(verifier, withAdmin ? admin : undefined),
      renderError: createProblemRenderer({
        basePath,
        logger,
        isUnroutedPath: (path) => isUnknownResourcePath(path, registry),
      }),
      implicitHead: false,
      implicitOptions: false,
      ignoreTrailingSlash: true,
      bodyLimit: BODY_LIMIT,
      logger,
      ...(options.onResponse === undefined ? {} : { onResponse: options.onResponse }),
    });
  const api = await frameworkServer(!separateAdmin);
  const authorize = options.authorize ?? createAuthorizer(store, options);
  const categories = options.compositeCategories ?? compositeCategoriesOf(registry);
  api.addRoutes(1, [
    ...dataRoutes({ store, registry, basePath, trustProxy, authorize, profiles }),
    ...compositeRoutes({ services: { store, registry, authorize }, categories, basePath, trustProxy }),
    ...oauthRoutes({ store: options.tokenStore ?? store, tokenLifetimeSeconds, tokensPerClient }),
    ...tokenInfoRoutes({ store, registry }),
    ...metaRoutes({
      registry,
      basePath,
      docs: options.docs,
      trustProxy,
      profiles,
      metadataDocuments: compositeMetadataDocuments(categories),
    }),
  ]);
  if (admin === undefined) return { api };
  const adminServer = separateAdmin ? await frameworkServer(true) : api;
  adminServer.addRoutes(1, [
    ...adminRoutes({ store, verifier }),
    ...profileRoutes({ store, registry, catalog: profiles }),
  ]);
  return separateAdmin ? { api, admin: adminServer } : { api };
}
