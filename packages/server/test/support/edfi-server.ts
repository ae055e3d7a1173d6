// An Ed-Fi server for HTTP tests: a store (in memory unless a file is named) seeded with the default descriptors and
// school years, an API client with a bearer token, and request helpers over inject(); authorization is only enforced
// when asked for.
import type { ApiServer, InjectResponse } from '@edfi-api/framework';
import { allowEveryAction } from '../../src/api/index.js';
import { createEdFiApp, type EdFiAppOptions } from '../../src/http/app.js';
import { getModelRegistry, type ModelRegistry } from '../../src/model/index.js';
import { createClient, type AccessTokenVerifier, type NewClientOptions } from '../../src/security/index.js';
import { seedSchoolYears } from '../../src/setup/first-start.js';
import { openStore, type Store, type StoreOptions } from '../../src/store/index.js';

export const BASE_PATH = '/v7.3/api';
export const DATA_PATH = `${BASE_PATH}/data/v3`;

export interface RequestOptions {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

export interface EdFiTestServer {
  readonly server: ApiServer;
  readonly store: Store;
  readonly registry: ModelRegistry;
  readonly token: string;
  /** A request under `/data/v3` (e.g. `/ed-fi/students`) with the bearer token unless headers replace it. */
  data(method: string, path: string, options?: RequestOptions): Promise<InjectResponse>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** A store spec; default `sqlite::memory:`. */
  readonly store?: string;
  /** Seed the default descriptors and school years (default true). */
  readonly seed?: boolean;
  readonly storeOptions?: StoreOptions;
  /** Enforce claim sets and strategies (contract §8); by default the client may do everything. */
  readonly enforceAuthorization?: boolean;
  /** With enforcement, the OwnershipBasedAuthorization feature too. */
  readonly ownershipBasedAuthorization?: boolean;
  /** The app's bearer verifier over the store (a clock of the test's, say); default the app's own. */
  readonly bearerVerifier?: (store: Store) => AccessTokenVerifier;
  /** What the app gets instead of the store (a wrapper that interleaves other work, say); setup uses the store. */
  readonly wrapStore?: (store: Store) => Store;
  /** The composite categories served instead of the model's. */
  readonly compositeCategories?: EdFiAppOptions['compositeCategories'];
  /** Optional extensions served (`sample`, `homograph`); default none. */
  readonly extensions?: readonly string[];
}

async function seedDefaults(store: Store, registry: ModelRegistry): Promise<void> {
  for (const descriptor of registry.descriptorResources) {
    await store.seedDescriptors(descriptor, registry.descriptorValuesOf(descriptor.resourceName));
  }
}

/** A bearer token for a new client of the given application (default: the sandbox claim set, no ed-orgs). */
export async function issueToken(server: ApiServer, store: Store, options: NewClientOptions = {}): Promise<string> {
  const client = await createClient(store, options);
  const response = await server.inject({
    method: 'POST',
    url: `${BASE_PATH}/oauth/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.key,
      client_secret: client.secret,
    }).toString(),
  });
  if (response.status !== 200) throw new Error(`Token request failed: ${response.status} ${response.body}`);
  return response.json<{ access_token: string }>().access_token;
}

export async function startEdFiServer(options: TestServerOptions = {}): Promise<EdFiTestServer> {
  const registry = getModelRegistry(options.extensions ?? []);
  // Serving extensions on a store migrated without them is a migration (`serve --extensions` on such a store).
  const store = await openStore(options.store ?? 'sqlite::memory:', registry, {
    ...options.storeOptions,
    ...(options.extensions?.length ? { migrate: true } : {}),
  });
  const authorize = options.enforceAuthorization === true ? undefined : allowEveryAction;
  const server = await createEdFiApp({
    store: options.wrapStore?.(store) ?? store,
    registry,
    logger: silentLogger,
    ownershipBasedAuthorization: options.ownershipBasedAuthorization ?? false,
    ...(options.bearerVerifier ? { bearerVerifier: options.bearerVerifier(store) } : {}),
    ...(authorize ? { authorize } : {}),
    ...(options.compositeCategories ? { compositeCategories: options.compositeCategories } : {}),
  });
  const token = await issueToken(server, store);
  const data = (method: string, path: string, request: RequestOptions = {}): Promise<InjectResponse> =>
    server.inject({
      method,
      url: `${DATA_PATH}${path}`,
      headers: { authorization: `Bearer ${token}`, ...request.headers },
      body: request.body,
    });
  if (options.seed ?? true) {
    await seedDefaults(store, registry);
    await seedSchoolYears(store, registry);
  }
  return { server, store, registry, token, data, close: () => store.close() };
}

/** Only errors reach the test output (an unexpected 500 shows its cause there). */
const silentLogger = { info: () => undefined, warn: () => undefined, error: console.error };
