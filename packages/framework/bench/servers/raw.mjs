// Baseline: a hand-written node:http server doing the same work as the framework for S1–S6 (version extraction,
// Map routing with a typed id segment, the shared JWT verifier and API key check, JSON body parsing with the same
// limits, JSON.stringify per response) and writing each response with one writeHead (precomputed header names, an
// explicit content-length) and one end. It is the floor the framework is measured against.

import { createServer } from 'node:http';
import { Buffer } from 'node:buffer';
import {
  BODY_LIMIT,
  FORBIDDEN_MESSAGE,
  INVALID_JSON_MESSAGE,
  JSON_CT,
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

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': JSON_CT, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res, status, code, message, challenge) {
  const body = JSON.stringify({ error: { code, message } });
  const headers = { 'content-type': JSON_CT, 'content-length': Buffer.byteLength(body) };
  if (challenge !== undefined) headers['www-authenticate'] = challenge;
  res.writeHead(status, headers);
  res.end(body);
}

/** Reads at most BODY_LIMIT bytes and parses JSON (no content type, application/json or *+json), like the framework. */
function readJson(req, res, onBody) {
  const type = req.headers['content-type'];
  if (type !== undefined) {
    const semi = type.indexOf(';');
    const media = (semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase();
    if (media !== 'application/json' && !media.endsWith('+json')) {
      sendError(res, 415, 'unsupported_media_type', 'Unsupported request content type.');
      return;
    }
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > BODY_LIMIT) {
    sendError(res, 413, 'payload_too_large', 'Request body is too large.');
    req.resume();
    return;
  }
  const chunks = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > BODY_LIMIT) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return sendError(res, 413, 'payload_too_large', 'Request body is too large.');
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    let body;
    try {
      body = JSON.parse(text);
      // Prototype-poisoning guard: a cheap pre-scan, and a strict re-parse only when a suspicious key appears.
      if (text.includes('__proto__') || text.includes('constructor')) {
        JSON.parse(text, (key, value) => {
          if (key === '__proto__' || key === 'constructor') throw new Error('poisoned');
          return value;
        });
      }
    } catch {
      return sendError(res, 400, 'invalid_input', INVALID_JSON_MESSAGE);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return sendError(res, 400, 'invalid_input', 'Body payload must be a JSON object.');
    }
    onBody(body);
  });
}

function bearerClaims(req, res, verify) {
  const header = req.headers.authorization;
  if (header === undefined || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') {
    sendError(res, 401, 'unauthorized', UNAUTHORIZED_MESSAGE, 'Bearer');
    return undefined;
  }
  try {
    return verify(header.slice(7).trim());
  } catch {
    sendError(res, 401, 'unauthorized', 'Invalid token.', 'Bearer error="invalid_token"');
    return undefined;
  }
}

/** Parses a segment of ASCII digits (1–15) into a number, or returns -1. */
function intSegment(path, start, end) {
  if (end <= start || end - start > 15) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = path.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  return n;
}

await runServer('raw', async (config) => {
  const verify = createJwtVerifier(config.jwtCache);

  // Routing tables: static paths → method table; first segment → { item: methods for /seg/{int}, subs: Map }.
  const statics = new Map();
  const dynamics = new Map();
  const methods = (table, method, handler) => {
    if (table[method] !== undefined) throw new Error(`duplicate ${method}`);
    table[method] = handler;
  };
  const add = (method, segments, handler) => {
    const [a, b, c] = segments;
    if (segments.every((p) => p.s !== undefined)) {
      const path = `/${segments.map((p) => p.s).join('/')}`.toLowerCase();
      if (!statics.has(path)) statics.set(path, Object.create(null));
      return methods(statics.get(path), method, handler);
    }
    if (a.s === undefined || b?.int === undefined || segments.length > 3 || (c !== undefined && c.s === undefined)) {
      throw new Error(`raw server: unsupported route shape ${JSON.stringify(segments)}`);
    }
    const key = a.s.toLowerCase();
    if (!dynamics.has(key)) dynamics.set(key, { item: Object.create(null), subs: new Map() });
    const node = dynamics.get(key);
    if (c === undefined) return methods(node.item, method, handler);
    const sub = c.s.toLowerCase();
    if (!node.subs.has(sub)) node.subs.set(sub, Object.create(null));
    return methods(node.subs.get(sub), method, handler);
  };

  add('GET', [{ s: 'hello' }], (req, res) => send(res, 200, { hello: 'world' }));
  add(
    'GET',
    [{ s: 'users' }, { int: 'id' }],
    config.usersAuth === 'bearer'
      ? (req, res, id) => {
          const claims = bearerClaims(req, res, verify);
          if (claims === undefined) return;
          if (!hasScope(claims, REQUIRED_SCOPE)) return sendError(res, 403, 'forbidden', FORBIDDEN_MESSAGE);
          send(res, 200, { id });
        }
      : (req, res, id) => send(res, 200, { id }),
  );
  add('POST', [{ s: 'items' }], (req, res) => {
    try {
      clientRepository.validateApiKey(req.headers['x-api-key']);
    } catch {
      req.resume();
      return sendError(res, 401, 'unauthorized', UNAUTHORIZED_MESSAGE);
    }
    readJson(req, res, (body) => send(res, 201, itemResponse(body)));
  });
  for (const route of fillerRoutes(config.routes)) {
    const body = fillerBody(route);
    add(route.method, route.segments, (req, res) => send(res, 200, body));
  }

  const notFound = (req, res) => {
    req.resume();
    sendError(res, 404, 'not_found', NOT_FOUND_MESSAGE);
  };

  const server = createServer((req, res) => {
    const url = req.url;
    // Version: the default `^/api/v(?<Version>[0-9]+)(?<Path>/.*)$` without a regex (prefix, digits, then '/').
    if (!url.startsWith('/api/v')) return notFound(req, res);
    let i = 6;
    let version = 0;
    for (; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c < 48 || c > 57) break;
      version = version * 10 + (c - 48);
    }
    if (i === 6 || i > 21 || url.charCodeAt(i) !== 47 || version !== 1) return notFound(req, res);
    const q = url.indexOf('?', i);
    const path = q === -1 ? url.slice(i) : url.slice(i, q);

    let table = statics.get(path) ?? statics.get(path.toLowerCase());
    let id;
    if (table === undefined) {
      const j = path.indexOf('/', 1);
      if (j !== -1) {
        const first = path.slice(1, j);
        const node = dynamics.get(first) ?? dynamics.get(first.toLowerCase());
        if (node !== undefined) {
          const k = path.indexOf('/', j + 1);
          const n = intSegment(path, j + 1, k === -1 ? path.length : k);
          if (n !== -1) {
            id = n;
            if (k === -1) table = node.item;
            else {
              const rest = path.slice(k + 1);
              table = node.subs.get(rest) ?? node.subs.get(rest.toLowerCase());
            }
          }
        }
      }
    }
    if (table === undefined) return notFound(req, res);
    const handler = table[req.method];
    if (handler === undefined) {
      req.resume();
      const body = JSON.stringify({ error: { code: 'method_not_allowed', message: 'Method not allowed.' } });
      res.writeHead(405, {
        'content-type': JSON_CT,
        'content-length': Buffer.byteLength(body),
        allow: Object.keys(table).join(', '),
      });
      return res.end(body);
    }
    handler(req, res, id);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  return () => new Promise((resolve) => server.close(resolve));
});
