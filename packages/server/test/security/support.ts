// Test support for security: a real store in memory, and a framework server with the OAuth routes and a protected
// route echoing the caller its token stands for.
import { createServer, type ApiServer } from '@edfi-api/framework';
import { authenticationOptions, route } from '../../src/http/authentication.js';
import { oauthRoutes } from '../../src/http/oauth/token-route.js';
import { createProblemRenderer } from '../../src/http/problem-details.js';
import {
  createBearerVerifier,
  type AccessTokenVerifier,
  type BearerVerifierOptions,
  type TokenGrantContext,
} from '../../src/security/index.js';
import { openStore, type Store } from '../../src/store/index.js';

export const BASE = '/v7.3/api';

export function memoryStore(): Promise<Store> {
  return openStore('sqlite::memory:');
}

export interface SecuredServerOptions {
  readonly verifier?: BearerVerifierOptions;
  readonly oauth?: Omit<TokenGrantContext, 'store'>;
}

export interface SecuredServer {
  readonly server: ApiServer;
  readonly verifier: AccessTokenVerifier;
}

/** A server with the token endpoint, the Ed-Fi error rendering and `GET /data/v3/whoami` answering `ctx.identity`. */
export async function securedServer(store: Store, options: SecuredServerOptions = {}): Promise<SecuredServer> {
  const verifier = createBearerVerifier(store, options.verifier);
  const server = await createServer({
    baseUriRegex: /^\/v7\.3\/api(?<Path>\/.*)?$/i,
    ...authenticationOptions(verifier),
    ignoreTrailingSlash: true,
    renderError: createProblemRenderer({ basePath: BASE, logger: { error: () => {} } }),
  });
  server.addRoutes(1, [
    ...oauthRoutes({ store, ...options.oauth }),
    route.get('/data/v3/whoami', { auth: ['bearer'] }, (ctx) => ctx.identity),
  ]);
  return { server, verifier };
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** Requests a token with form fields; resolves with the raw response. */
export function requestToken(server: ApiServer, fields: Record<string, string>) {
  return server.inject({
    method: 'POST',
    url: `${BASE}/oauth/token`,
    headers: FORM,
    body: form({ grant_type: 'client_credentials', ...fields }),
  });
}
