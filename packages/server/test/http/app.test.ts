// Mounting: every route lives under the base path (default `/v7.3/api`, configurable), whose root answers with or
// without a trailing slash; nothing is served outside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdFiApp } from '../../src/http/app.js';
import { openStore, type Store } from '../../src/store/index.js';

let store: Store;

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
});
afterAll(() => store.close());

describe('the base path', () => {
  it('serves the root at /v7.3/api, with or without a trailing slash and in any case', async () => {
    const server = await createEdFiApp({ store });
    for (const url of ['/v7.3/api', '/v7.3/api/', '/V7.3/API/']) {
      const response = await server.inject({ url });
      expect(response.status, url).toBe(200);
      expect(response.json<{ version: string }>().version).toBe('7.3');
    }
    for (const url of ['/', '/v7.3/apiary', '/v7.3/ap']) {
      expect((await server.inject({ url })).status, url).toBe(404);
    }
  });

  it('can be another path, or the server root', async () => {
    const mounted = await createEdFiApp({ store, basePath: '/ods/' });
    expect((await mounted.inject({ url: '/ods' })).status).toBe(200);
    expect((await mounted.inject({ url: '/ods/data/v3/ed-fi/students' })).status).toBe(401);
    expect((await mounted.inject({ url: '/v7.3/api' })).status).toBe(404);
    const atRoot = await createEdFiApp({ store, basePath: '' });
    expect((await atRoot.inject({ url: '/' })).status).toBe(200);
    expect((await atRoot.inject({ url: '/data/v3/ed-fi/students' })).status).toBe(401);
  });
});
