// The benchmark scenarios S1–S6 (framework spec, Part C §4.2), the server variants they run against, and the
// correctness checks every server must pass before it is measured. Shared by run.mjs (HTTP) and micro.mjs (inject).

import { API_KEY, BEARER_TOKEN, FORGED_TOKEN, ITEM_BODY, NO_SCOPE_TOKEN } from './servers/common.mjs';

/**
 * A server process is started per variant: S2 and S3 hit the same URL, but S2 measures a public route and S3 the
 * same route behind Bearer auth with a required scope, so they need different route options; S6 needs 600 routes.
 */
export const VARIANTS = {
  base: { ROUTES: '60', USERS_AUTH: 'none' },
  auth: { ROUTES: '60', USERS_AUTH: 'bearer' },
  large: { ROUTES: '600', USERS_AUTH: 'none' },
};

const userPath = '/api/v1/users/12345';

function errorEnvelope(code) {
  return (status, body) => {
    const ok = body?.error?.code === code && typeof body.error.message === 'string';
    return ok ? null : `expected error envelope with code "${code}", got ${JSON.stringify(body)}`;
  };
}

/**
 * Each scenario: the request autocannon sends, the expected status and body (deep-equal, or a function returning an
 * error string), the variant it runs against, and `checks`: further requests that must give the stated answer
 * (negative paths that prove the server does the work, e.g. rejects a forged token). `notes` are parity probes that
 * are recorded but do not block measuring (behaviour a peer framework does not offer).
 */
export const SCENARIOS = {
  S1: {
    title: 'GET /api/v1/hello',
    variant: 'base',
    request: { method: 'GET', path: '/api/v1/hello' },
    status: 200,
    body: { hello: 'world' },
    checks: [],
    notes: [{ what: 'case-insensitive static path', request: { method: 'GET', path: '/api/v1/HELLO' }, status: 200 }],
  },
  S2: {
    title: 'GET /api/v1/users/12345, {int:id}, 60 other routes',
    variant: 'base',
    request: { method: 'GET', path: userPath },
    status: 200,
    body: { id: 12345 },
    checks: [
      {
        what: 'non-integer id is not matched',
        request: { method: 'GET', path: '/api/v1/users/abc' },
        status: 404,
        body: errorEnvelope('not_found'),
      },
      { what: 'static sibling wins', request: { method: 'GET', path: '/api/v1/users/search' }, status: 200 },
    ],
    notes: [
      { what: 'case-insensitive static part', request: { method: 'GET', path: '/api/v1/Users/12345' }, status: 200 },
    ],
  },
  S3: {
    title: 'GET /api/v1/users/12345 + Bearer HS256 JWT + scope',
    variant: 'auth',
    request: { method: 'GET', path: userPath, headers: { authorization: `Bearer ${BEARER_TOKEN}` } },
    status: 200,
    body: { id: 12345 },
    checks: [
      {
        what: 'no token',
        request: { method: 'GET', path: userPath },
        status: 401,
        body: errorEnvelope('unauthorized'),
      },
      {
        what: 'forged token',
        request: { method: 'GET', path: userPath, headers: { authorization: `Bearer ${FORGED_TOKEN}` } },
        status: 401,
        body: errorEnvelope('unauthorized'),
      },
      {
        what: 'token without the scope',
        request: { method: 'GET', path: userPath, headers: { authorization: `Bearer ${NO_SCOPE_TOKEN}` } },
        status: 403,
        body: errorEnvelope('forbidden'),
      },
    ],
    notes: [],
  },
  S4: {
    title: 'POST /api/v1/items, 200 B JSON, x-api-key',
    variant: 'base',
    request: {
      method: 'POST',
      path: '/api/v1/items',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: ITEM_BODY,
    },
    status: 201,
    body: { created: true, name: 'widget' },
    checks: [
      {
        what: 'wrong API key',
        request: {
          method: 'POST',
          path: '/api/v1/items',
          headers: { 'content-type': 'application/json', 'x-api-key': 'wrong-key' },
          body: ITEM_BODY,
        },
        status: 401,
        body: errorEnvelope('unauthorized'),
      },
      {
        what: 'invalid JSON',
        request: {
          method: 'POST',
          path: '/api/v1/items',
          headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
          body: '{"name":',
        },
        status: 400,
        body: errorEnvelope('invalid_input'),
      },
    ],
    notes: [],
  },
  S5: {
    title: 'GET /api/v1/nope → 404 envelope',
    variant: 'base',
    request: { method: 'GET', path: '/api/v1/nope' },
    status: 404,
    body: errorEnvelope('not_found'),
    checks: [
      {
        what: 'unknown version',
        request: { method: 'GET', path: '/api/v9/hello' },
        status: 404,
        body: errorEnvelope('not_found'),
      },
    ],
    notes: [],
  },
  S6: {
    title: 'S2 with 600 other routes',
    variant: 'large',
    request: { method: 'GET', path: userPath },
    status: 200,
    body: { id: 12345 },
    checks: [
      {
        what: 'non-integer id is not matched',
        request: { method: 'GET', path: '/api/v1/users/abc' },
        status: 404,
        body: errorEnvelope('not_found'),
      },
      { what: 'a late filler route', request: { method: 'GET', path: '/api/v1/resource90/7/items' }, status: 200 },
    ],
    notes: [],
  },
};

export const SCENARIO_IDS = Object.keys(SCENARIOS);

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}

/**
 * Compares a response `{ status, headers, text }` with an expectation `{ status, body? }`; returns null when it
 * matches, else a reason. JSON responses must say so in their content type.
 */
export function compareResponse(expect, response) {
  if (response.status !== expect.status) {
    return `status ${response.status}, expected ${expect.status} (body ${response.text.slice(0, 200)})`;
  }
  const type = String(response.headers['content-type'] ?? '');
  if (!type.toLowerCase().startsWith('application/json')) return `content-type "${type}", expected application/json`;
  let body;
  try {
    body = JSON.parse(response.text);
  } catch {
    return `body is not JSON: ${response.text.slice(0, 200)}`;
  }
  if (typeof expect.body === 'function') return expect.body(response.status, body);
  if (expect.body !== undefined && !deepEqual(body, expect.body)) {
    return `body ${response.text.slice(0, 200)}, expected ${JSON.stringify(expect.body)}`;
  }
  return null;
}
