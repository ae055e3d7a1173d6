// Peer: Hono 4 on @hono/node-server 2 (default SmartRouter), the typed id as `:id{[0-9]+}`, the shared JWT verifier
// and API key check as middlewares. Hono has no case-insensitive routing, so the case probes are only recorded.

import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import {
  FORBIDDEN_MESSAGE,
  INVALID_JSON_MESSAGE,
  NOT_FOUND_MESSAGE,
  REQUIRED_SCOPE,
  UNAUTHORIZED_MESSAGE,
  clientRepository,
  createJwtVerifier,
  fillerBody,
  fillerRoutes,
  hasScope,
  itemResponse,
  runServer,
} from './common.mjs';

const PREFIX = '/api/v1';

function path(segments) {
  return `${PREFIX}/${segments.map((p) => (p.s !== undefined ? p.s : `:${p.int}{[0-9]+}`)).join('/')}`;
}

function envelope(code, message) {
  return { error: { code, message } };
}

await runServer('hono', async (config) => {
  const app = new Hono();
  const verify = createJwtVerifier(config.jwtCache);

  app.notFound((c) => c.json(envelope('not_found', NOT_FOUND_MESSAGE), 404));
  app.onError((error, c) => c.json(envelope('error', 'Unexpected API error.'), 500));

  const bearer = async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') {
      c.header('www-authenticate', 'Bearer');
      return c.json(envelope('unauthorized', UNAUTHORIZED_MESSAGE), 401);
    }
    let claims;
    try {
      claims = verify(header.slice(7).trim());
    } catch {
      c.header('www-authenticate', 'Bearer error="invalid_token"');
      return c.json(envelope('unauthorized', 'Invalid token.'), 401);
    }
    if (!hasScope(claims, REQUIRED_SCOPE)) return c.json(envelope('forbidden', FORBIDDEN_MESSAGE), 403);
    c.set('claims', claims);
    await next();
  };

  const apiKey = async (c, next) => {
    try {
      clientRepository.validateApiKey(c.req.header('x-api-key'));
    } catch {
      return c.json(envelope('unauthorized', UNAUTHORIZED_MESSAGE), 401);
    }
    await next();
  };

  app.get(`${PREFIX}/hello`, (c) => c.json({ hello: 'world' }));
  const user = (c) => c.json({ id: Number(c.req.param('id')) });
  const userPath = path([{ s: 'users' }, { int: 'id' }]);
  if (config.usersAuth === 'bearer') app.get(userPath, bearer, user);
  else app.get(userPath, user);
  app.post(`${PREFIX}/items`, apiKey, async (c) => {
    let body;
    try {
      body = await c.req.json();
    } catch {
      return c.json(envelope('invalid_input', INVALID_JSON_MESSAGE), 400);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return c.json(envelope('invalid_input', 'Body payload must be a JSON object.'), 400);
    }
    return c.json(itemResponse(body), 201);
  });
  for (const route of fillerRoutes(config.routes)) {
    const body = fillerBody(route);
    app.on(route.method, path(route.segments), (c) => c.json(body));
  }

  const server = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
    s.once('error', reject);
  });
  return () => new Promise((resolve) => server.close(resolve));
});
