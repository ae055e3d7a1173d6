// Errors raised outside the operations (contract §2.5, §6.1, §6.3): authentication, routing, media types, body size,
// malformed JSON and unexpected failures, each as the ODS renders it, with the correlation id from the request.
import { Unauthorized } from '@edfi-api/framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdFiApp } from '../../src/http/app.js';
import { createProblemRenderer } from '../../src/http/problem-details.js';
import type { Store } from '../../src/store/index.js';
import { studentDocument } from '../support/documents.js';
import { BASE_PATH, DATA_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { CORRELATION_ID, expectProblem, MIDDLEWARE_PROBLEM, WITH_CORRELATION } from '../support/problems.js';

let app: EdFiTestServer;

beforeAll(async () => {
  app = await startEdFiServer({ seed: false });
});
afterAll(() => app.close());

function authenticationFailed(message: string) {
  return {
    detail: 'The caller could not be authenticated.',
    type: 'urn:ed-fi:api:security:authentication',
    title: 'Authentication Failed',
    status: 401,
    errors: [message],
  };
}

const notFound = {
  detail: 'The specified data could not be found.',
  type: 'urn:ed-fi:api:not-found',
  title: 'Not Found',
  status: 404,
};

describe('401 on data paths', () => {
  it.each([
    ['no Authorization header', undefined, 'Authorization header is missing.'],
    ['an unparsable header', '   ', 'Authorization header is missing.'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Unknown Authorization header scheme.'],
    ['an empty bearer value', 'Bearer ', 'Missing Authorization header bearer token value.'],
    ['a bearer scheme alone', 'bearer', 'Missing Authorization header bearer token value.'],
    ['a token that is not a GUID', 'Bearer not-a-guid', 'Invalid Authorization header.'],
    ['an unknown token', `Bearer ${'a'.repeat(32)}`, 'Invalid token'],
  ])('%s', async (_case, authorization, message) => {
    const response = await app.data('GET', '/ed-fi/students', { headers: { ...WITH_CORRELATION, authorization } });
    expectProblem(response, authenticationFailed(message), MIDDLEWARE_PROBLEM);
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('comes before 404 and 405, whether the header or the token lookup shows the failure', async () => {
    for (const [method, path] of [
      ['GET', '/ed-fi/students/a/b/c'],
      ['GET', '/ed-fi/noSuchResources'],
      ['PATCH', '/ed-fi/students'],
    ] as const) {
      for (const [authorization, message] of [
        [undefined, 'Authorization header is missing.'],
        [`Bearer ${'a'.repeat(32)}`, 'Invalid token'],
      ] as const) {
        expectProblem(
          await app.data(method, path, { headers: { ...WITH_CORRELATION, authorization } }),
          authenticationFailed(message),
          MIDDLEWARE_PROBLEM,
        );
      }
    }
  });

  it('is a bare 401 elsewhere', () => {
    const render = createProblemRenderer({ basePath: BASE_PATH, logger: { error: () => undefined } });
    const response = render(new Unauthorized(), {
      method: 'POST',
      url: `${BASE_PATH}/oauth/token_info`,
      headers: {},
    });
    expect(response).toEqual({ status: 401, headers: { 'Content-Length': 0 }, body: '' });
  });
});

describe('routing', () => {
  it('answers 404 for unknown paths, inside and outside the base path', async () => {
    for (const url of [`${DATA_PATH}/ed-fi/students/a/b/c`, `${BASE_PATH}/nothing`, '/elsewhere']) {
      const response = await app.server.inject({
        url,
        headers: { ...WITH_CORRELATION, authorization: `Bearer ${app.token}` },
      });
      expectProblem(response, notFound, MIDDLEWARE_PROBLEM);
    }
  });

  it.each(['PATCH', 'OPTIONS'])('answers 405 for %s with the methods the route supports', async (method) => {
    const response = await app.data(method, '/ed-fi/students', { headers: WITH_CORRELATION });
    expectProblem(
      response,
      {
        detail: 'The request construction was invalid.',
        type: 'urn:ed-fi:api:method-not-allowed',
        title: 'Method Not Allowed',
        status: 405,
        errors: [`The endpoint of the request does not support the '${method}' method.`],
      },
      MIDDLEWARE_PROBLEM,
    );
    expect(response.headers.allow).toBe('DELETE, GET, POST, PUT');
  });

  it('answers 404, not 405, for any method on an unknown resource or namespace (no route there)', async () => {
    for (const [method, path] of [
      ['PATCH', '/ed-fi/nothings'],
      ['OPTIONS', `/ed-fi/nothings/${'3'.repeat(32)}`],
      ['PATCH', '/nowhere/students'],
    ] as const) {
      expectProblem(await app.data(method, path, { headers: WITH_CORRELATION }), notFound, MIDDLEWARE_PROBLEM);
    }
  });

  it('answers HEAD with 405 and no body', async () => {
    const response = await app.data('HEAD', `/ed-fi/students/${'3'.repeat(32)}`);
    expect(response.status).toBe(405);
    expect(response.body).toBe('');
  });
});

describe('request bodies', () => {
  const unsupported = (message: string) => ({
    detail: 'The request construction was invalid.',
    type: 'urn:ed-fi:api:unsupported-media-type',
    title: 'Unsupported Media Type',
    status: 415,
    errors: [message],
  });

  it('refuses a non-JSON media type with 415', async () => {
    for (const method of ['POST', 'PUT']) {
      const path = method === 'POST' ? '/ed-fi/students' : `/ed-fi/students/${'4'.repeat(32)}`;
      expectProblem(
        await app.data(method, path, {
          body: JSON.stringify(studentDocument),
          headers: { ...WITH_CORRELATION, 'content-type': 'text/plain' },
        }),
        unsupported("The value specified in the 'Content-Type' header is not supported by this host."),
        MIDDLEWARE_PROBLEM,
      );
    }
  });

  it('refuses a write without Content-Type with 415', async () => {
    expectProblem(
      await app.data('POST', '/ed-fi/students', { body: JSON.stringify(studentDocument), headers: WITH_CORRELATION }),
      unsupported("The 'Content-Type' header is missing."),
      MIDDLEWARE_PROBLEM,
    );
  });

  // Profile media types are +json types too; they are chosen by profile (test/profiles), so an unknown one is a 415.
  it.each(['application/json; charset=utf-8', 'text/json', 'application/hal+json'])(
    'accepts %s',
    async (contentType) => {
      const response = await app.data('POST', '/ed-fi/students', {
        body: JSON.stringify({ ...studentDocument, studentUniqueId: contentType.length.toString() }),
        headers: { 'content-type': contentType },
      });
      expect(response.status).toBe(201);
    },
  );

  const malformed = (body: string, contentType = 'application/json') =>
    app.data('POST', '/ed-fi/students', { body, headers: { ...WITH_CORRELATION, 'content-type': contentType } });
  const unreadableAt = (path: string, message: string) => ({
    detail: "Data validation failed. See 'validationErrors' for details.",
    type: 'urn:ed-fi:api:bad-request:data-validation-failed',
    title: 'Data Validation Failed',
    status: 400,
    validationErrors: { [path]: [message] },
  });
  const badRequest = (message: string) => ({
    detail: "The request could not be processed. See 'errors' for details.",
    type: 'urn:ed-fi:api:bad-request',
    title: 'Bad Request',
    status: 400,
    errors: [message],
  });

  it.each(['application/json', 'text/json'])(
    'answers malformed %s with data-validation-failed keyed by the JSON path where reading stopped',
    async (contentType) => {
      expectProblem(
        await malformed('{"studentUniqueId": ', contentType),
        unreadableAt(
          '$.studentUniqueId',
          "Unexpected end when reading JSON. Path 'studentUniqueId', line 1, position 20.",
        ),
      );
    },
  );

  it.each([
    [
      '{"studentUniqueId": "1",, "firstName": "A"}',
      '$.studentUniqueId',
      "Invalid property identifier character: ,. Path 'studentUniqueId', line 1, position 25.",
    ],
    [
      '{\n  "personReference": {\n    "personId": "P1"\n  }\n',
      '$.personReference',
      "Unexpected end when deserializing object. Path 'personReference', line 5, position 0.",
    ],
    [
      '{"visas": [{"visaDescriptor": "x"}, , ]}',
      '$.visas[1]',
      "Unexpected character encountered while parsing value: ,. Path 'visas[1]', line 1, position 37.",
    ],
    [
      '{"firstName": "A" "lastSurname": "B"}',
      '$.firstName',
      "After parsing a value an unexpected character was encountered: \". Path 'firstName', line 1, position 19.",
    ],
  ])('reports %j under %s', async (body, path, message) => {
    expectProblem(await malformed(body), unreadableAt(path, message));
  });

  it('answers what cannot be read outside any property with the plain bad request', async () => {
    expectProblem(
      await malformed('{"firstName": "A"} x'),
      badRequest("Additional text encountered after finished reading JSON content: x. Path '', line 1, position 20."),
    );
    expectProblem(
      await malformed('{"__proto__": {"polluted": true},}'),
      badRequest('Body payload contains a forbidden property name.'),
    );
  });

  it('answers a body over 30,000,000 bytes with a bare 413', async () => {
    const response = await app.data('POST', '/ed-fi/students', {
      body: Buffer.alloc(30_000_001, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toBe('');
  });
});

describe('unexpected failures', () => {
  it('answer 500 without details and log the error', async () => {
    const failing = new Proxy(app.store, {
      get(target, property) {
        if (property === 'get' || property === 'getAuthorized')
          return () => Promise.reject(new Error('SQLITE_CORRUPT: secret table layout'));
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    }) as Store;
    const logged: unknown[] = [];
    const server = await createEdFiApp({
      store: failing,
      logger: { info: () => undefined, warn: () => undefined, error: (...entry) => logged.push(entry) },
    });
    const response = await server.inject({
      url: `${DATA_PATH}/ed-fi/students/${'5'.repeat(32)}`,
      headers: { ...WITH_CORRELATION, authorization: `Bearer ${app.token}` },
    });
    expectProblem(response, {
      detail: 'An unexpected problem has occurred.',
      type: 'urn:ed-fi:api:system',
      title: 'System Error',
      status: 500,
    });
    expect(response.body).not.toContain('SQLITE');
    expect(logged).toEqual([
      [expect.stringContaining('GET'), { correlationId: CORRELATION_ID, error: expect.any(Error) }],
    ]);
  });
});

describe('correlation ids', () => {
  it('come from the header, else the query string, else a new GUID', async () => {
    const fromQuery = await app.data('GET', '/ed-fi/nothings?CorrelationId=from-query');
    expect(fromQuery.json<{ correlationId: string }>().correlationId).toBe('from-query');
    const fromHeader = await app.data('GET', '/ed-fi/nothings?correlationId=from-query', {
      headers: { 'Correlation-Id': 'from-header' },
    });
    expect(fromHeader.json<{ correlationId: string }>().correlationId).toBe('from-header');
    const generated = await app.data('GET', '/ed-fi/nothings');
    expect(generated.json<{ correlationId: string }>().correlationId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('never appear as a response header', async () => {
    const response = await app.data('GET', '/ed-fi/nothings', { headers: WITH_CORRELATION });
    expect(Object.keys(response.headers).filter((name) => name.includes('correlation'))).toEqual([]);
  });
});
