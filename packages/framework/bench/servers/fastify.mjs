// Peer: Fastify 5 written the way the fastify/benchmarks servers are (sync handlers with reply.send, JSON response
// schemas), find-my-way with caseSensitive:false, the typed id as a `:id(^\d+$)` regex parameter, the shared JWT
// verifier in a preHandler and the shared API key check in an onRequest hook (before the body is read, as in the
// framework and the raw server).

import Fastify from 'fastify';
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
  return `${PREFIX}/${segments.map((p) => (p.s !== undefined ? p.s : `:${p.int}(^\\d+$)`)).join('/')}`;
}

function schema(status, properties) {
  return { response: { [status]: { type: 'object', properties } } };
}

function envelope(code, message) {
  return { error: { code, message } };
}

const codes = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
};

await runServer('fastify', async (config) => {
  const app = Fastify({ logger: false, routerOptions: { caseSensitive: false } });
  const verify = createJwtVerifier(config.jwtCache);

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(envelope('not_found', NOT_FOUND_MESSAGE));
  });
  app.setErrorHandler((error, request, reply) => {
    const status = error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const message =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? INVALID_JSON_MESSAGE
        : status < 500
          ? error.message
          : 'Unexpected API error.';
    reply.code(status).send(envelope(codes[status] ?? 'error', message));
  });

  const bearer = (request, reply, done) => {
    const header = request.headers.authorization;
    if (header === undefined || header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') {
      reply.code(401).header('www-authenticate', 'Bearer').send(envelope('unauthorized', UNAUTHORIZED_MESSAGE));
      return;
    }
    let claims;
    try {
      claims = verify(header.slice(7).trim());
    } catch {
      reply
        .code(401)
        .header('www-authenticate', 'Bearer error="invalid_token"')
        .send(envelope('unauthorized', 'Invalid token.'));
      return;
    }
    if (!hasScope(claims, REQUIRED_SCOPE)) {
      reply.code(403).send(envelope('forbidden', FORBIDDEN_MESSAGE));
      return;
    }
    request.claims = claims;
    done();
  };

  const apiKey = (request, reply, done) => {
    try {
      clientRepository.validateApiKey(request.headers['x-api-key']);
    } catch {
      reply.code(401).send(envelope('unauthorized', UNAUTHORIZED_MESSAGE));
      return;
    }
    done();
  };

  app.get(`${PREFIX}/hello`, schema(200, { hello: { type: 'string' } }), (request, reply) => {
    reply.send({ hello: 'world' });
  });
  app.route({
    method: 'GET',
    url: path([{ s: 'users' }, { int: 'id' }]),
    schema: schema(200, { id: { type: 'integer' } }),
    preHandler: config.usersAuth === 'bearer' ? bearer : undefined,
    handler: (request, reply) => {
      reply.send({ id: Number(request.params.id) });
    },
  });
  app.route({
    method: 'POST',
    url: `${PREFIX}/items`,
    schema: schema(201, { created: { type: 'boolean' }, name: { type: 'string' } }),
    onRequest: apiKey,
    handler: (request, reply) => {
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        reply.code(400).send(envelope('invalid_input', 'Body payload must be a JSON object.'));
        return;
      }
      reply.code(201).send(itemResponse(body));
    },
  });
  for (const route of fillerRoutes(config.routes)) {
    const body = fillerBody(route);
    app.route({
      method: route.method,
      url: path(route.segments),
      schema: schema(200, { route: { type: 'string' } }),
      handler: (request, reply) => {
        reply.send(body);
      },
    });
  }

  await app.listen({ port: config.port, host: config.host });
  return () => app.close();
});
