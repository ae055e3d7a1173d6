// onRequest: a hook before routing, which may answer with an error or authenticate the caller first (so that a 401
// comes before 404 and 405), after which routes accepting that scheme only check their scopes.
import { describe, expect, it } from 'vitest';
import { createServer, Forbidden, routes, Unauthorized, type Authenticated, type AuthScheme } from '../../src/index.js';

const BEARER: readonly AuthScheme[] = ['bearer'];
const logger = { info() {}, warn() {}, error() {} };

async function serverWith(onRequest: NonNullable<Parameters<typeof createServer>[0]>['onRequest']) {
  let verified = 0;
  const options = {
    logger,
    onRequest,
    bearerVerifier: (token: string): Authenticated<{ name: string }> => {
      verified++;
      if (token !== 'good') throw new Unauthorized('Invalid token');
      return { identity: { name: 'alice' }, scopes: ['read'] };
    },
  };
  const server = await createServer(options);
  const route = routes<typeof options>();
  server.addRoutes(1, [
    route.get('/items/{int:id}', { auth: ['bearer'], scopes: ['read'] }, (ctx) => ({
      id: ctx.params.id,
      name: ctx.identity.name,
    })),
    route.get('/secret', { auth: ['bearer'], scopes: ['write'] }, () => ({ secret: true })),
    route.get('/public', { auth: ['none'] }, (ctx) => ({ scheme: ctx.auth.scheme })),
    route.get('/names/{name}', { auth: ['none'] }, (ctx) => ({ name: ctx.params.name })),
  ]);
  return { server, verifications: () => verified };
}

const good = { authorization: 'Bearer good' };

describe('onRequest', () => {
  it('authenticates before routing: 401 wins over 404 and 405, and a route reuses the principal', async () => {
    const { server, verifications } = await serverWith((ctx) =>
      ctx.path.startsWith('/items') ? ctx.authenticate(BEARER).then(() => undefined) : undefined,
    );
    expect((await server.inject({ url: '/api/v1/items/1/2' })).status).toBe(401);
    expect((await server.inject({ method: 'DELETE', url: '/api/v1/items/1' })).status).toBe(401);
    expect((await server.inject({ url: '/api/v1/items/1/2', headers: good })).status).toBe(404);
    expect((await server.inject({ method: 'DELETE', url: '/api/v1/items/1', headers: good })).status).toBe(405);

    const before = verifications();
    const response = await server.inject({ url: '/api/v1/items/7', headers: good });
    expect(response.json()).toEqual({ id: 7, name: 'alice' });
    expect(verifications() - before).toBe(1);
  });

  it('leaves scopes to the route', async () => {
    const { server } = await serverWith((ctx) => ctx.authenticate(BEARER).then(() => undefined));
    const response = await server.inject({ url: '/api/v1/secret', headers: good });
    expect(response.status).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('answers with what it throws, synchronously or not, and sees the path, version and query', async () => {
    const seen: unknown[] = [];
    const { server } = await serverWith((ctx) => {
      seen.push([ctx.method, ctx.path, ctx.version, ctx.query.q]);
      if (ctx.query.q === 'sync') throw new Forbidden('Closed.');
      if (ctx.query.q === 'async') return Promise.reject(new Forbidden('Closed later.'));
      return undefined;
    });
    const sync = await server.inject({ url: '/api/v1/public?q=sync' });
    expect([sync.status, sync.json()]).toEqual([403, { error: { code: 'forbidden', message: 'Closed.' } }]);
    const later = await server.inject({ url: '/api/v1/public?q=async' });
    expect([later.status, later.json()]).toEqual([403, { error: { code: 'forbidden', message: 'Closed later.' } }]);
    const passed = await server.inject({ url: '/api/v1/public?q=on' });
    expect(passed.json()).toEqual({ scheme: 'none' });
    expect(seen).toEqual([
      ['GET', '/public', 1, 'sync'],
      ['GET', '/public', 1, 'async'],
      ['GET', '/public', 1, 'on'],
    ]);
  });

  it('leaves routing errors their status after an asynchronous hook', async () => {
    const { server } = await serverWith(() => Promise.resolve());
    const malformed = await server.inject({ url: '/api/v1/names/%zz' });
    expect([malformed.status, malformed.json()]).toEqual([
      400,
      { error: { code: 'invalid_input', message: 'Malformed percent-encoding in path.' } },
    ]);
    expect((await server.inject({ url: '/api/v1/names/a%20b' })).json()).toEqual({ name: 'a b' });
  });

  it('is not called for URLs outside the base URI or its versions', async () => {
    let calls = 0;
    const { server } = await serverWith(() => {
      calls++;
    });
    expect((await server.inject({ url: '/elsewhere' })).status).toBe(404);
    expect((await server.inject({ url: '/api/v9/public' })).status).toBe(404);
    expect(calls).toBe(0);
  });
});
