// A fresh in-process Ed-Fi server over a new store (in memory unless a spec is given), set up like a first `serve`
// (default descriptors, school years, a sandbox client), reachable through injectFetch at BASE_URL.
import type { ApiServer } from '@edfi-api/framework';
import { allowEveryAction } from '../../../src/api/index.js';
import { createEdFiApp } from '../../../src/http/app.js';
import { createHttpTarget, type LoadTarget } from '../../../src/load/index.js';
import { getModelRegistry } from '../../../src/model/index.js';
import { prepareFirstStart } from '../../../src/setup/first-start.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { injectFetch } from './inject-fetch.js';

export const BASE_URL = 'http://localhost/v7.3/api';

export interface SandboxServer {
  readonly server: ApiServer;
  readonly store: Store;
  /** An HTTP load target for the sandbox client, through injectFetch. */
  readonly target: LoadTarget;
  readonly key: string;
  readonly secret: string;
  /** GET with the sandbox client's token; returns the parsed JSON body. */
  get<T>(path: string): Promise<{ status: number; body: T; headers: Readonly<Record<string, string>> }>;
  close(): Promise<void>;
}

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function startSandboxServer(spec = 'sqlite::memory:'): Promise<SandboxServer> {
  const registry = getModelRegistry();
  const store = await openStore(spec, registry);
  const firstStart = await prepareFirstStart(store, registry, 'descriptors');
  if (!firstStart) throw new Error(`The store ${spec} was not empty`);
  const { key, secret } = firstStart.sandbox;
  // The sandbox client has no education organizations: loads test the loader, not authorization.
  const server = await createEdFiApp({ store, registry, logger: silentLogger, authorize: allowEveryAction });
  const fetch = injectFetch(server);
  const target = createHttpTarget({ url: BASE_URL, key, secret, fetch });
  let token: string | undefined;
  async function get<T>(path: string): Promise<{ status: number; body: T; headers: Readonly<Record<string, string>> }> {
    token ??= (
      JSON.parse(
        await (
          await fetch(`${BASE_URL}/oauth/token`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ grant_type: 'client_credentials', client_id: key, client_secret: secret }),
          })
        ).text(),
      ) as { access_token: string }
    ).access_token;
    const response = await server.inject({ url: `/v7.3/api${path}`, headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: JSON.parse(response.body || 'null') as T, headers: response.headers };
  }
  return { server, store, target, key, secret, get, close: () => store.close() };
}
