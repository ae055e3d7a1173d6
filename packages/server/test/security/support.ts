// Test doubles for security: an in-memory client and token store, and a framework server with the OAuth routes.
import { createServer, route, type ApiServer } from '@edfi-api/framework';
import { createProblemRenderer } from '../../src/http/problem-details.js';
import { createBearerVerifier, oauthRoutes, type BearerVerifierOptions } from '../../src/security/index.js';
import type { AccessTokenRecord, ApiClient, Store } from '../../src/store/store.js';

export type SecurityStore = Pick<Store, 'createClient' | 'findClient' | 'saveAccessToken' | 'findAccessToken'>;

export class MemorySecurityStore implements SecurityStore {
  readonly clients = new Map<string, ApiClient>();
  readonly tokens: AccessTokenRecord[] = [];

  async createClient(client: ApiClient): Promise<void> {
    this.clients.set(client.key, client);
  }

  async findClient(key: string): Promise<ApiClient | undefined> {
    return this.clients.get(key);
  }

  async saveAccessToken(token: AccessTokenRecord): Promise<void> {
    this.tokens.push(token);
  }

  async findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined> {
    return this.tokens.find((token) => token.tokenHash === tokenHash && token.expiresAt > now);
  }
}

export const BASE = '/v7.3/api';

/** A server with the token endpoint, the Ed-Fi error rendering and a protected route echoing the caller's client id. */
export async function securedServer(store: SecurityStore, verifier: BearerVerifierOptions = {}): Promise<ApiServer> {
  const server = await createServer({
    baseUriRegex: /^\/v7\.3\/api(?<Path>\/.*)?$/i,
    bearerVerifier: createBearerVerifier(store, verifier),
    ignoreTrailingSlash: true,
    renderError: createProblemRenderer({ basePath: BASE, logger: { error: () => {} } }),
  });
  server.addRoutes(1, [
    ...oauthRoutes({ store }),
    route.get('/data/v3/whoami', { auth: ['bearer'] }, (ctx) => ({ clientId: ctx.auth.clientId })),
  ]);
  return server;
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}
