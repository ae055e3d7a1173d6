import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServer,
  HttpError,
  json,
  raw,
  NotFound,
  Payload,
  route,
  type ApiServer,
  type ResponseEvent,
  type ServerOptions,
} from '../../src/index.js';

const errors: unknown[] = [];
const logger = { info() {}, warn() {}, error: (_message: string, data?: unknown) => void errors.push(data) };

async function serverWith(options: Partial<ServerOptions> = {}): Promise<ApiServer> {
  const server = await createServer({ logger, ...options });
  server.addRoutes(1, [
    route.get('/hello', { auth: ['none'] }, () => ({ hello: 'world' })),
    route.get('/users/{int:id}', { auth: ['none'] }, (ctx) => ({ id: ctx.params.id })),
    route.put('/users/{int:id}', { auth: ['none'] }, () => undefined),
    route.post('/echo', { auth: ['none'] }, async (ctx) => json(await ctx.body(), { status: 201 })),
    route.get('/query', { auth: ['none'] }, (ctx) => ({ q: ctx.query.q, all: ctx.query.getAll('q') })),
    route.get('/nothing', { auth: ['none'] }, () => undefined),
    route.get('/created', { auth: ['none'] }, () => json({ ok: true }, { status: 201, headers: { location: '/x' } })),
    route.get('/payload', { auth: ['none'] }, () => new Payload({ a: 1 }, 202).addHeader('x-custom', 'yes')),
    route.get('/teapot', { auth: ['none'] }, () => {
      throw new HttpError(418, 'I am a teapot');
    }),
    route.get('/missing', { auth: ['none'] }, async () => {
      throw new NotFound('No such thing.');
    }),
    route.get('/crash', { auth: ['none'] }, () => {
      throw new Error('database password is hunter2');
    }),
    route.get('/circular', { auth: ['none'] }, () => {
      const value: Record<string, unknown> = {};
      value.self = value;
      return value;
    }),
  ]);
  return server;
}

afterEach(() => {
  errors.length = 0;
});

function notFoundBody(pathname: string): string {
  return JSON.stringify({ error: { code: 'not_found', message: `Route ${pathname} does not exist.` } });
}

describe('responses', () => {
  it('answers a plain value as 200 JSON with charset and content-length', async () => {
    const server = await serverWith();
    const response = await server.inject({ url: '/api/v1/hello' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength('{"hello":"world"}')));
    expect(response.body).toBe('{"hello":"world"}');
  });

  it('delivers typed parameters', async () => {
    const server = await serverWith();
    expect((await server.inject({ url: '/api/v1/users/0042' })).json()).toEqual({ id: 42 });
  });

  it('answers undefined with 204 and no body', async () => {
    const server = await serverWith();
    const response = await server.inject({ url: '/api/v1/nothing' });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers['content-length']).toBeUndefined();
  });

  it('honours json() status and headers and the Payload compat class', async () => {
    const server = await serverWith();
    const created = await server.inject({ url: '/api/v1/created' });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe('/x');
    const payload = await server.inject({ url: '/api/v1/payload' });
    expect(payload.status).toBe(202);
    expect(payload.headers['x-custom']).toBe('yes');
    expect(payload.json()).toEqual({ a: 1 });
  });

  it('serves HEAD from the GET handler without a body', async () => {
    const server = await serverWith();
    const response = await server.inject({ method: 'HEAD', url: '/api/v1/hello' });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers['content-length']).toBe('17');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const server = await serverWith();
    const response = await server.inject({ method: 'OPTIONS', url: '/api/v1/users/5' });
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS, PUT');
  });
});

describe('errors', () => {
  it('answers an unknown path, version or base with 404 in the envelope', async () => {
    const server = await serverWith();
    for (const url of ['/api/v1/nope', '/api/v9/hello', '/other/v1/hello', '/api/v1/hello/']) {
      const response = await server.inject({ url });
      expect(response.status, url).toBe(404);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.json<{ error: { code: string } }>().error.code).toBe('not_found');
    }
  });

  it('names the unknown path in the 404 message, escaped as JSON, with its byte length', async () => {
    const server = await serverWith();
    const response = await server.inject({ url: '/api/v1/a"b\\c%C3%A9?x=1' });
    const body = '{"error":{"code":"not_found","message":"Route /api/v1/a\\"b\\\\c%C3%A9 does not exist."}}';
    expect(response.body).toBe(body);
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: 'Route /api/v1/a"b\\c%C3%A9 does not exist.' },
    });
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    const head = await server.inject({ method: 'HEAD', url: '/api/v1/nope' });
    expect(head.status).toBe(404);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(notFoundBody('/api/v1/nope'))));
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const server = await serverWith();
    const response = await server.inject({ method: 'DELETE', url: '/api/v1/users/5' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS, PUT');
    expect(response.json()).toEqual({
      error: { code: 'method_not_allowed', message: 'Method DELETE is not allowed on /api/v1/users/5.' },
    });
  });

  it('uses the code of thrown HttpErrors, and "error" when none is given', async () => {
    const server = await serverWith();
    expect((await server.inject({ url: '/api/v1/teapot' })).json()).toEqual({
      error: { code: 'error', message: 'I am a teapot' },
    });
    const missing = await server.inject({ url: '/api/v1/missing' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'No such thing.' } });
  });

  it('hides unexpected error messages, logs them, and keeps serving', async () => {
    const server = await serverWith();
    const response = await server.inject({ url: '/api/v1/crash' });
    expect(response.status).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'internal_error', message: 'Unexpected API error.' } });
    expect(String(errors[0])).toContain('hunter2');
    expect((await server.inject({ url: '/api/v1/hello' })).status).toBe(200);
  });

  it('exposes unexpected error messages when exposeErrors is on', async () => {
    const server = await serverWith({ exposeErrors: true });
    expect((await server.inject({ url: '/api/v1/crash' })).json()).toEqual({
      error: { code: 'internal_error', message: 'database password is hunter2' },
    });
  });

  it('answers 500 when the result cannot be serialised', async () => {
    const server = await serverWith();
    expect((await server.inject({ url: '/api/v1/circular' })).status).toBe(500);
  });

  it('requires a bearer token on routes that declare no auth (fail closed)', async () => {
    const server = await serverWith({ hashKey: 'k'.repeat(32) });
    server.addRoutes(1, [route.get('/secure', () => ({ secret: true }))]);
    const response = await server.inject({ url: '/api/v1/secure' });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json<{ error: { code: string } }>().error.code).toBe('unauthorized');
  });

  it('lets the application render errors in its own shape', async () => {
    const server = await serverWith({
      renderError: (error) =>
        error instanceof NotFound
          ? { status: 404, headers: { 'content-type': 'application/problem+json' }, body: '{"title":"gone"}' }
          : undefined,
    });
    const response = await server.inject({ url: '/api/v1/nope' });
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).toBe('{"title":"gone"}');
    expect((await server.inject({ url: '/api/v1/teapot' })).status).toBe(418);
  });
});

describe('bodies and queries', () => {
  it('parses JSON bodies, also without a content type and for +json types', async () => {
    const server = await serverWith();
    for (const headers of [{ 'content-type': 'application/json' }, {}, { 'content-type': 'application/vnd.x+json' }]) {
      const response = await server.inject({ method: 'POST', url: '/api/v1/echo', headers, body: '{"a":[1,2]}' });
      expect(response.status).toBe(201);
      expect(response.json()).toEqual({ a: [1, 2] });
    }
  });

  it('parses form bodies with the last value winning', async () => {
    const server = await serverWith();
    const response = await server.inject({
      method: 'POST',
      url: '/api/v1/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=x%20y&a=2',
    });
    expect(response.json()).toEqual({ a: '2', b: 'x y' });
  });

  it('rejects invalid JSON, scalars, poisoned keys, other media types and oversized bodies', async () => {
    const server = await serverWith({ bodyLimit: 64 });
    const post = (body: string, contentType = 'application/json') =>
      server.inject({ method: 'POST', url: '/api/v1/echo', headers: { 'content-type': contentType }, body });
    const invalid = await post('{"a":');
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toEqual({
      error: { code: 'invalid_input', message: 'Body payload contains invalid JSON.' },
    });
    expect((await post('42')).status).toBe(400);
    expect((await post('{"__proto__":{"admin":true}}')).status).toBe(400);
    expect((await post('{"constructor":{"prototype":{"admin":true}}}')).status).toBe(400);
    const media = await post('<xml/>', 'text/xml');
    expect(media.status).toBe(415);
    expect(media.json<{ error: { code: string } }>().error.code).toBe('unsupported_media_type');
    expect((await post('{"a":1}', 'text/plain')).status).toBe(201);
    const large = await post(JSON.stringify({ a: 'x'.repeat(100) }));
    expect(large.status).toBe(413);
    expect(large.json<{ error: { code: string } }>().error.code).toBe('payload_too_large');
  });

  it('keeps query values as strings, last value wins, getAll lists repeats', async () => {
    const server = await serverWith();
    const response = await server.inject({ url: '/api/v1/query?q=1&q=00123&other=x' });
    expect(response.json()).toEqual({ q: '00123', all: ['1', '00123'] });
  });
});

describe('over a real socket', () => {
  it('serves requests, counts streamed body bytes against the limit, and keeps serving', async () => {
    const server = await serverWith({ bodyLimit: 1024 });
    const address = await server.listen(0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${address.port}`;
      const hello = await fetch(`${base}/api/v1/hello`);
      expect(hello.status).toBe(200);
      expect(await hello.json()).toEqual({ hello: 'world' });

      const echo = await fetch(`${base}/api/v1/echo`, { method: 'POST', body: '{"x":1}' });
      expect(echo.status).toBe(201);
      expect(await echo.json()).toEqual({ x: 1 });

      const chunked = request(`${base}/api/v1/echo`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } });
      chunked.write(`{"a":"${'x'.repeat(800)}`);
      chunked.end(`${'y'.repeat(800)}"}`);
      const [response] = (await once(chunked, 'response')) as [import('node:http').IncomingMessage];
      expect(response.statusCode).toBe(413);
      response.resume();

      const unknown = await fetch(`${base}/api/v1/nope`);
      expect(unknown.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('rejects a body whose request is destroyed before its end: by the client (499), or with a cause', async () => {
    const events: ResponseEvent[] = [];
    const bodyErrors: unknown[] = [];
    const server = await createServer({ logger, onResponse: (event) => events.push(event) });
    const readBody = async (read: Promise<unknown>) => {
      try {
        return await read;
      } catch (error) {
        bodyErrors.push(error);
        throw error;
      }
    };
    server.addRoutes(1, [
      route.post('/slow', { auth: ['none'] }, (ctx) => readBody(ctx.body())),
      route.post('/stopped', { auth: ['none'] }, (ctx) => {
        const read = readBody(ctx.body());
        ctx.raw.req!.destroy(new Error('stopped by the application'));
        return read;
      }),
    ]);
    const address = await server.listen(0, '127.0.0.1');
    const send = async (path: string, destroy: boolean) => {
      const answered = events.length + 1;
      const socket = connect(address.port, '127.0.0.1');
      await once(socket, 'connect');
      socket.on('error', () => undefined);
      socket.write(`POST /api/v1/${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":`);
      if (destroy) setTimeout(() => socket.destroy(), 50);
      for (let waited = 0; events.length < answered && waited < 5_000; waited += 10) await sleep(10);
      socket.destroy();
    };
    try {
      await send('slow', true);
      await send('stopped', false);
      expect(events.map(({ url, status }) => ({ url, status }))).toEqual([
        { url: '/api/v1/slow', status: 499 },
        { url: '/api/v1/stopped', status: 499 },
      ]);
      expect(bodyErrors.map((error) => [(error as HttpError).status, (error as Error).message])).toEqual([
        [499, expect.any(String)],
        [undefined, 'stopped by the application'],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('implicit HEAD and OPTIONS', () => {
  it('can be switched off, leaving 405 with the declared methods only', async () => {
    const server = await serverWith({ implicitHead: false, implicitOptions: false });
    const head = await server.inject({ method: 'HEAD', url: '/api/v1/users/5' });
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe('GET, PUT');
    expect(head.body).toBe('');
    const options = await server.inject({ method: 'OPTIONS', url: '/api/v1/users/5' });
    expect(options.status).toBe(405);
    expect(options.json<{ error: { code: string } }>().error.code).toBe('method_not_allowed');
  });

  it('passes the request headers to the error renderer', async () => {
    const seen: (string | undefined)[] = [];
    const server = await serverWith({
      renderError: (_error, request) => {
        seen.push(request.headers['correlation-id'] as string | undefined);
        return undefined;
      },
    });
    await server.inject({ url: '/api/v1/nope', headers: { 'Correlation-Id': 'abc' } });
    expect(seen).toEqual(['abc']);
  });
});

describe('raw responses', () => {
  it('are written as given, with their own content type and a computed length', async () => {
    const server = await createServer({ logger });
    server.addRoutes(1, [
      route.get('/health', { auth: ['none'] }, () => raw('Healthy', { headers: { 'content-type': 'text/plain' } })),
      route.get('/cached', { auth: ['none'] }, () => raw(undefined, { status: 304, headers: { etag: '"x"' } })),
    ]);
    const health = await server.inject({ url: '/api/v1/health' });
    expect(health.status).toBe(200);
    expect(health.headers['content-type']).toBe('text/plain');
    expect(health.headers['content-length']).toBe('7');
    expect(health.body).toBe('Healthy');
    const cached = await server.inject({ url: '/api/v1/cached' });
    expect(cached.status).toBe(304);
    expect(cached.headers.etag).toBe('"x"');
    expect(cached.body).toBe('');
  });
});

describe('raw request bodies', () => {
  it('are available as received, once, alongside the parsed body', async () => {
    const server = await createServer({ logger });
    server.addRoutes(1, [
      route.post('/raw', { auth: ['none'] }, async (ctx) => {
        const bytes = await ctx.rawBody();
        return { text: bytes.toString('utf8'), same: (await ctx.rawBody()) === bytes, parsed: await ctx.body() };
      }),
    ]);
    const response = await server.inject({ method: 'POST', url: '/api/v1/raw', body: '{ "a" : null }' });
    expect(response.json()).toEqual({ text: '{ "a" : null }', same: true, parsed: { a: null } });
  });

  it('are available after the parsed body too, even when it does not parse, and fail as the body read did', async () => {
    const server = await createServer({ logger, bodyLimit: 16 });
    server.addRoutes(1, [
      route.post('/raw-after', { auth: ['none'] }, async (ctx) => {
        const parsed = await ctx.body().then(
          (body) => body,
          (error: HttpError) => error.status,
        );
        const bytes = await ctx.rawBody().then(
          (raw) => raw.toString('utf8'),
          (error: HttpError) => error.status,
        );
        return {
          parsed,
          bytes,
          same: (await ctx.rawBody().catch(() => null)) === (await ctx.rawBody().catch(() => null)),
        };
      }),
    ]);
    const post = (body: string) => server.inject({ method: 'POST', url: '/api/v1/raw-after', body });
    expect((await post('\uFEFF{"a":1}')).json()).toEqual({ parsed: { a: 1 }, bytes: '\uFEFF{"a":1}', same: true });
    expect((await post('{"a":')).json()).toEqual({ parsed: 400, bytes: '{"a":', same: true });
    expect((await post(`{"a":"${'x'.repeat(20)}"}`)).json()).toEqual({ parsed: 413, bytes: 413, same: true });
  });

  it('strips one byte order mark before parsing, and only one', async () => {
    const server = await serverWith();
    const echo = (body: string) => server.inject({ method: 'POST', url: '/api/v1/echo', body });
    expect((await echo('\uFEFF{"a":1}')).json()).toEqual({ a: 1 });
    expect((await echo('\uFEFF\uFEFF{"a":1}')).status).toBe(400);
  });

  it('reports every response it wrote to onResponse: method, target, status and duration', async () => {
    const events: ResponseEvent[] = [];
    const server = await serverWith({ onResponse: (event) => events.push(event) });
    const address = await server.listen(0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${address.port}`;
      await (await fetch(`${base}/api/v1/hello?x=1`)).text();
      await (await fetch(`${base}/api/v1/echo`, { method: 'POST', body: '{"x":1}' })).text();
      await (await fetch(`${base}/api/v1/nope`)).text();
      expect(events.map(({ method, url, status }) => ({ method, url, status }))).toEqual([
        { method: 'GET', url: '/api/v1/hello?x=1', status: 200 },
        { method: 'POST', url: '/api/v1/echo', status: 201 },
        { method: 'GET', url: '/api/v1/nope', status: 404 },
      ]);
      for (const { durationMs } of events) expect(durationMs).toBeGreaterThanOrEqual(0);
      await server.inject({ method: 'GET', url: '/api/v1/hello' });
      expect(events).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
