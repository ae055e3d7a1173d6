import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/index.js';
import { createHelloServer } from '../../examples/hello/src/app.js';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
let server: ApiServer;
let bearer: string;

beforeAll(async () => {
  server = await createHelloServer({ info() {}, warn() {}, error() {} });
  const response = await server.inject({
    method: 'POST',
    url: '/api/v1/oauth/token',
    headers: { ...form, authorization: basic('demo-client', 'demo-secret') },
    body: 'grant_type=client_credentials',
  });
  bearer = `Bearer ${response.json<{ access_token: string }>().access_token}`;
});

describe('the hello example', () => {
  it('issues a JWT for client credentials in the Basic header, with no-store headers', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: { ...form, authorization: basic('demo-client', 'demo-secret') },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<Record<string, unknown>>();
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read write' });
    expect(String(body.access_token).split('.')).toHaveLength(3);
  });

  it('issues tokens for form credentials and for the refresh_token grant', async () => {
    const viaForm = await server.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: form,
      body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
    });
    expect(viaForm.status).toBe(200);
    const refreshed = await server.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: { ...form, authorization: basic('demo-client', 'demo-secret') },
      body: `grant_type=refresh_token&refresh_token=${bearer.slice(7)}`,
    });
    expect(refreshed.status).toBe(200);
    const badGrant = await server.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: { ...form, authorization: basic('demo-client', 'demo-secret') },
      body: 'grant_type=password',
    });
    expect(badGrant.status).toBe(400);
    expect(badGrant.json()).toEqual({ error: 'unsupported_grant_type' });
  });

  it('refuses a wrong secret with 401', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/api/v1/oauth/token',
      headers: { ...form, authorization: basic('demo-client', 'wrong') },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Basic realm="api"');
  });

  it('serves users per version, search before {name}, names as sent', async () => {
    const get = (url: string) => server.inject({ url, headers: { authorization: bearer } });
    expect((await get('/api/v1/users/42')).json()).toEqual({ id: 42, version: 1 });
    expect((await get('/api/v2/users/42')).json()).toEqual({ id: 42, version: 2 });
    expect((await get('/api/v1/users/search?q=x')).json()).toEqual({ query: 'x' });
    expect((await get('/api/v1/users/Ada')).json()).toEqual({ name: 'Ada' });
    expect((await get('/api/v2/users/Ada')).status).toBe(404);
    expect((await server.inject({ url: '/api/v1/users/42' })).status).toBe(401);
  });

  it('matches the default base URI in any letter case, like the routes', async () => {
    const get = (url: string) => server.inject({ url, headers: { authorization: bearer } });
    for (const url of ['/API/V1/USERS/SEARCH?q=x', '/api/v1/USERS/SEARCH?q=x', '/Api/V1/users/search?q=x']) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.json()).toEqual({ query: 'x' });
    }
  });

  it('serves items by ULID in either case', async () => {
    const ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    for (const id of [ulid, ulid.toLowerCase()]) {
      const response = await server.inject({ url: `/api/v1/items/${id}`, headers: { authorization: bearer } });
      expect(response.json()).toEqual({ id });
    }
    expect((await server.inject({ url: '/api/v1/items/not-a-ulid', headers: { authorization: bearer } })).status).toBe(
      404,
    );
  });

  it('tells who is calling for each accepted scheme', async () => {
    const whoami = (headers: Record<string, string>, query = '') =>
      server.inject({ url: `/api/v1/whoami${query}`, headers });
    expect((await whoami({ 'x-api-key': 'demo-api-key' })).json()).toEqual({
      scheme: 'apiKey',
      clientId: 'demo-client',
    });
    expect((await whoami({ authorization: basic('demo-client', 'demo-secret') })).json()).toEqual({
      scheme: 'basic',
      clientId: 'demo-client',
    });
    expect((await whoami({}, '?client_id=demo-client&client_secret=demo-secret')).json()).toEqual({
      scheme: 'client',
      clientId: 'demo-client',
    });
    expect((await whoami({ 'x-api-key': 'wrong' })).status).toBe(401);
    expect((await whoami({})).status).toBe(401);
  });

  it('echoes JSON and form bodies with 201 behind the API key', async () => {
    const json = await server.inject({
      method: 'POST',
      url: '/api/v1/echo',
      headers: { 'x-api-key': 'demo-api-key' },
      body: { a: 1, b: [true] },
    });
    expect(json.status).toBe(201);
    expect(json.json()).toEqual({ a: 1, b: [true] });
    const viaForm = await server.inject({
      method: 'POST',
      url: '/api/v1/echo',
      headers: { 'x-api-key': 'demo-api-key', ...form },
      body: 'a=1&b=two',
    });
    expect(viaForm.json()).toEqual({ a: '1', b: 'two' });
    expect((await server.inject({ method: 'POST', url: '/api/v1/echo', body: {} })).status).toBe(401);
  });

  it('refuses the admin route to the demo token for lack of scope', async () => {
    const response = await server.inject({ url: '/api/v1/admin/stats', headers: { authorization: bearer } });
    expect(response.status).toBe(403);
    expect(response.json<{ error: { code: string } }>().error.code).toBe('forbidden');
  });

  it('answers the public ping, 404 for unknown paths and 405 with Allow for wrong methods', async () => {
    expect((await server.inject({ url: '/api/v1/public/ping' })).json()).toEqual({ pong: true });
    const unknown = await server.inject({ url: '/api/v1/unknown' });
    expect(unknown.status).toBe(404);
    expect(unknown.json<{ error: { code: string } }>().error.code).toBe('not_found');
    const wrong = await server.inject({ method: 'DELETE', url: '/api/v1/public/ping' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('documents itself as OpenAPI 3.1 with the routes of each version', async () => {
    const document = server.generateOpenApi(1) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toContain('/api/v1/users/{id}');
    expect(Object.keys(server.generateOpenApi(2).paths as object)).toEqual([
      '/api/v2/openapi.json',
      '/api/v2/users/{id}',
    ]);
  });

  it('serves each version its OpenAPI document, publicly', async () => {
    const response = await server.inject({ url: '/api/v2/openapi.json' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.json<{ paths: object }>().paths)).toContain('/api/v2/users/{id}');
  });

  it('serves the docs page over both documents, with the Swagger UI files from swagger-ui-dist', async () => {
    const page = await server.inject({ url: '/API/V1/docs' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const settings = JSON.parse(
      /<script id="docs-settings" type="application\/json">(.*?)<\/script>/.exec(page.body)![1]!,
    );
    expect(settings).toEqual({
      title: 'hello example',
      pagePath: '/API/V1/docs',
      documents: [
        { name: 'v1', url: '/API/V1/openapi.json' },
        { name: 'v2', url: '/api/v2/openapi.json' },
      ],
    });
    const bundle = await server.inject({ url: '/api/v1/docs/swagger-ui-bundle.js' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.body).toContain('SwaggerUIBundle');
    expect((await server.inject({ url: '/api/v1/docs/swagger-ui.css' })).headers['content-type']).toMatch(/^text\/css/);
    expect((await server.inject({ url: '/api/v1/docs/package.json' })).status).toBe(404);
  });
});
