// Builds the framework app the benchmarks measure, from the BUILT framework (dist/): the S1–S4 handlers are
// discovered from bench/fixtures/<public|bearer>/V1 and the filler routes are registered with server.addRoutes.
// The JWT key, API key check and JWT cache setting are the ones the other servers use (see common.mjs).
// Shared by servers/ours.mjs (HTTP) and micro.mjs (inject).

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JWT_KEY, clientRepository, fillerBody, fillerRoutes } from './common.mjs';

export const DIST_ENTRY = new URL('../../dist/index.js', import.meta.url);

/** Null when the framework is built, else the reason it cannot be benchmarked. */
export function distMissing() {
  const path = fileURLToPath(DIST_ENTRY);
  return existsSync(path)
    ? null
    : `${path} is missing: build the framework first (npm run build -w packages/framework)`;
}

/** Loads the built framework's public module. */
export function loadFramework() {
  const missing = distMissing();
  if (missing !== null) throw new Error(missing);
  return import(DIST_ENTRY.href);
}

/** The filler routes in the framework's path syntax, as public routes. */
export function fillerDefinitions(route, count) {
  return fillerRoutes(count).map((filler) => {
    const path = `/${filler.segments.map((p) => (p.s !== undefined ? p.s : `{int:${p.int}}`)).join('/')}`;
    const body = fillerBody(filler);
    return route[filler.method.toLowerCase()](path, { auth: ['none'] }, () => body);
  });
}

/** Creates (does not start) the benchmark app for a server configuration `{ routes, usersAuth, jwtCache }`. */
export async function buildOurs({ routes, usersAuth, jwtCache }, extraRoutes = () => []) {
  const framework = await loadFramework();
  const fixtures = usersAuth === 'bearer' ? '../fixtures/bearer/' : '../fixtures/public/';
  const server = await framework.createServer({
    controllerDirectory: new URL(fixtures, import.meta.url),
    hashKey: JWT_KEY,
    clientRepository,
    jwt: { requireExp: false, cacheSize: jwtCache },
  });
  server.addRoutes(1, [...fillerDefinitions(framework.route, routes), ...extraRoutes(framework)]);
  return server;
}
