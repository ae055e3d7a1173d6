// Shared fixtures of the HTTP benchmark: keys, the JWT verifier every server uses, the filler route set, the
// scenario catalogue and the IPC protocol between a forked server and bench/run.mjs.
//
// Every server (raw, ours, fastify, hono) imports this module so that the work they do per request is the same:
// the same fast-jwt HS256 verifier (no cache), the same constant-time API key compare, the same filler routes.

import { createHash, timingSafeEqual } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { createSigner, createVerifier } from 'fast-jwt';

/** HS256 secret shared by the servers and the load generator (fixed, ≥ 32 bytes, benchmark only). */
export const JWT_KEY = 'bench-only-hs256-secret-0123456789abcdef';
/** The API key the S4 scenario sends in `x-api-key` (benchmark only). */
export const API_KEY = 'bench-only-api-key-0123456789abcdef';
/** The scope S3 requires in the token's `scope` claim. */
export const REQUIRED_SCOPE = 'users:read';

export const JSON_CT = 'application/json; charset=utf-8';
export const BODY_LIMIT = 1024 * 1024;

/** A fixed, deterministic bearer token (fixed `iat`, `exp` in 2100) so every run sends the same bytes. */
export const BEARER_TOKEN = createSigner({ key: JWT_KEY, algorithm: 'HS256' })({
  sub: 'bench-client',
  scope: `${REQUIRED_SCOPE} users:write`,
  iat: 1_700_000_000,
  exp: 4_102_444_800,
});
/** A valid token without the required scope: every server must answer 403. */
export const NO_SCOPE_TOKEN = createSigner({ key: JWT_KEY, algorithm: 'HS256' })({
  sub: 'bench-client',
  scope: 'users:write',
  iat: 1_700_000_000,
  exp: 4_102_444_800,
});
/** Same claims, signed with another key: every server must answer 401. */
export const FORGED_TOKEN = createSigner({ key: 'another-bench-only-secret-0123456789abcd', algorithm: 'HS256' })({
  sub: 'bench-client',
  scope: REQUIRED_SCOPE,
  iat: 1_700_000_000,
  exp: 4_102_444_800,
});

/**
 * The JWT verifier all servers use (HS256 pinned), so the comparison is of frameworks, not JWT libraries. `cache` is
 * fast-jwt's verified-token cache size, 0 (the benchmark default, env JWT_CACHE) for none: S3 sends one token over
 * and over, so with a cache S3 would measure a cache hit instead of an HMAC.
 */
export function createJwtVerifier(cache = 0) {
  return createVerifier({ key: JWT_KEY, algorithms: ['HS256'], cache: cache > 0 ? cache : false });
}

/** Whether the `scope` claim (space-separated string or array) grants `scope`. */
export function hasScope(claims, scope) {
  const granted = claims.scope;
  if (typeof granted === 'string') return granted.split(' ').includes(scope);
  return Array.isArray(granted) && granted.includes(scope);
}

/** Constant-time string compare: SHA-256 of both sides, then timingSafeEqual (as the framework docs recommend). */
export function safeEqual(a, b) {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** The client repository the servers share; throws on a bad key like the contract's `validateApiKey`. */
export const clientRepository = {
  validateApiKey(key) {
    // `expose: true` lets the framework answer with this message without logging a stack trace per rejection.
    if (typeof key !== 'string' || !safeEqual(key, API_KEY))
      throw Object.assign(new Error('Invalid API key.'), { expose: true });
    return { clientId: 'bench-client' };
  },
  validate() {
    throw new Error('Not supported in the benchmark.');
  },
};

/** The S4 request body: a JSON object of exactly 200 bytes. */
export const ITEM_BODY = (() => {
  const base = { name: 'widget', sku: 'W-000123', price: 12.5, quantity: 3, tags: ['blue', 'small'], note: '' };
  const pad = 200 - Buffer.byteLength(JSON.stringify(base));
  base.note = 'x'.repeat(pad);
  const text = JSON.stringify(base);
  if (Buffer.byteLength(text) !== 200) throw new Error('S4 body is not 200 bytes');
  return text;
})();

/** What every server answers to S4: `201 {"created":true,"name":<body.name>}`. */
export function itemResponse(body) {
  return { created: true, name: body.name };
}

export const NOT_FOUND_MESSAGE = 'Not found.';
export const UNAUTHORIZED_MESSAGE = 'Not authed.';
export const FORBIDDEN_MESSAGE = 'Token does not provide the required scope.';
export const INVALID_JSON_MESSAGE = 'Body payload contains invalid JSON.';

/**
 * The filler routes registered besides the measured ones: `count` routes in the shapes of a typical REST API
 * (list, create, read, update, delete, sub-collection) plus a few siblings of `/users/{int:id}`, so that the
 * typed-parameter lookup of S2/S6 has neighbours. Each segment is `{ s: 'static' }` or `{ int: 'name' }`.
 */
export function fillerRoutes(count) {
  const routes = [
    { method: 'GET', segments: [{ s: 'users' }] },
    { method: 'GET', segments: [{ s: 'users' }, { s: 'search' }] },
    { method: 'GET', segments: [{ s: 'users' }, { int: 'id' }, { s: 'posts' }] },
    { method: 'DELETE', segments: [{ s: 'users' }, { int: 'id' }] },
  ];
  const shapes = [
    (r) => ({ method: 'GET', segments: [{ s: r }] }),
    (r) => ({ method: 'POST', segments: [{ s: r }] }),
    (r) => ({ method: 'GET', segments: [{ s: r }, { int: 'id' }] }),
    (r) => ({ method: 'PUT', segments: [{ s: r }, { int: 'id' }] }),
    (r) => ({ method: 'DELETE', segments: [{ s: r }, { int: 'id' }] }),
    (r) => ({ method: 'GET', segments: [{ s: r }, { int: 'id' }, { s: 'items' }] }),
  ];
  for (let i = 0; routes.length < count; i++) {
    routes.push(shapes[i % shapes.length](`resource${Math.floor(i / shapes.length)}`));
  }
  return routes.slice(0, count);
}

/** The answer of every filler route (they are registered, never measured). */
export function fillerBody(route) {
  return { route: `${route.method} ${route.segments.map((p) => p.s ?? `{${p.int}}`).join('/')}` };
}

/** Reads the server configuration the harness passes in the environment. */
export function serverConfig() {
  const routes = Number(process.env.ROUTES ?? 60);
  const usersAuth = process.env.USERS_AUTH ?? 'none';
  const jwtCache = Number(process.env.JWT_CACHE ?? 0);
  if (!Number.isInteger(routes) || routes < 0 || routes > 10_000) throw new Error(`bad ROUTES=${process.env.ROUTES}`);
  if (usersAuth !== 'none' && usersAuth !== 'bearer') throw new Error(`bad USERS_AUTH=${usersAuth}`);
  if (!Number.isInteger(jwtCache) || jwtCache < 0) throw new Error(`bad JWT_CACHE=${process.env.JWT_CACHE}`);
  return { port: Number(process.env.PORT ?? 3000), host: '127.0.0.1', routes, usersAuth, jwtCache };
}

/**
 * Runs a benchmark server: `start(config)` must listen on 127.0.0.1:`config.port` and return a `close()` function.
 * When forked, it signals `{type:'ready'}` over IPC and answers `{type:'stats', id}` with `process.cpuUsage()` and
 * the RSS; it exits when the harness disconnects, so a crashed harness never leaves a server behind.
 */
export async function runServer(name, start) {
  const config = serverConfig();
  let close;
  try {
    close = await start(config);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (process.send) process.send({ type: 'error', message: `${name}: ${message}` });
    else console.error(`${name}: ${message}`);
    process.exit(2);
  }
  if (!process.send) {
    console.log(
      `${name} listening on http://${config.host}:${config.port} (ROUTES=${config.routes}, USERS_AUTH=${config.usersAuth})`,
    );
    return;
  }
  process.on('message', (message) => {
    if (message?.type === 'stats') {
      process.send({ type: 'stats', id: message.id, cpu: process.cpuUsage(), rss: process.memoryUsage.rss() });
    } else if (message?.type === 'stop') {
      Promise.resolve(close()).finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', name, port: config.port, pid: process.pid });
}
