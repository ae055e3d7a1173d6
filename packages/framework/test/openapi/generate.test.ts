// OpenAPI generation: every document is validated against the OpenAPI 3.1 schema, then checked in detail.

import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { generateOpenApi, type OpenApiDocument, type OpenApiOptions } from '../../src/openapi/generate.js';
import { ULID_PATTERN } from '../../src/openapi/path-template.js';
import type { RouteInfo } from '../../src/routes/route-definition.js';
import { ConfigurationError } from '../../src/errors.js';

function routeInfo(method: RouteInfo['method'], path: string, extra: Partial<RouteInfo> = {}): RouteInfo {
  return {
    version: 1,
    method,
    path,
    auth: ['bearer'],
    scopes: [],
    parameters: [],
    source: `V1/test.ts#${path}`,
    ...extra,
  };
}

const routes: readonly RouteInfo[] = [
  routeInfo('GET', '/users/{int:id}', { scopes: ['users:read'], summary: 'One user', tags: ['users'] }),
  routeInfo('GET', '/users/search', { auth: ['apiKey', 'basic'] }),
  routeInfo('PATCH', '/users/{int:id}', { auth: ['bearer', 'apiKey'], scopes: ['users:write'] }),
  routeInfo('GET', '/orders/{ulid:orderId}/files/file.{ext}', {
    parameters: [
      { name: 'ext', in: 'path', description: 'File extension', schema: { type: 'string', pattern: '^[a-z]{2,4}$' } },
    ],
  }),
  routeInfo('GET', '/codes/{code}', {
    auth: ['none'],
    parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z]{3}$' } }],
  }),
  routeInfo('POST', '/oauth/token', { auth: ['client'], operationId: 'issueToken', tags: ['auth'] }),
  routeInfo('GET', '/status', { auth: ['apiKey', 'none'] }),
  routeInfo('HEAD', '/status', { auth: ['none'] }),
  routeInfo('GET', '/', { auth: ['none'] }),
  routeInfo('GET', '/users/{int:id}', { version: 2 }),
  routeInfo('DELETE', '/legacy', { version: 2 }),
];

async function generateValid(input: readonly RouteInfo[], version: number, options?: OpenApiOptions) {
  const document = generateOpenApi(input, version, options);
  const result = await new Validator().validate(JSON.parse(JSON.stringify(document)) as Record<string, unknown>);
  if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
  expect(result.valid).toBe(true);
  return document;
}

function operation(document: OpenApiDocument, path: string, method: 'get' | 'post' | 'patch' | 'head' | 'delete') {
  const found = document.paths[path]?.[method];
  if (found === undefined) throw new Error(`No ${method} ${path} in the document`);
  return found;
}

describe('generateOpenApi', () => {
  it('produces valid OpenAPI 3.1 with and without a token URL', async () => {
    await generateValid(routes, 1);
    await generateValid(routes, 2);
    await generateValid(routes, 1, {
      title: 'Users',
      version: '2.3.0',
      description: 'The users API.',
      servers: [{ url: 'https://api.example.com' }],
      pathPrefix: '/api/v1/',
      tokenUrl: '/api/v1/oauth/token',
    });
    await generateValid([], 1);
  });

  it('fills info, servers and the path prefix', async () => {
    const document = await generateValid(routes, 1, {
      title: 'Users',
      description: 'The users API.',
      servers: [{ url: 'https://api.example.com' }],
      pathPrefix: '/api/v1/',
    });
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Users', description: 'The users API.', version: '1' });
    expect(document.servers).toEqual([{ url: 'https://api.example.com' }]);
    expect(Object.keys(document.paths)).toContain('/api/v1/users/{id}');
    expect(Object.keys(document.paths)).toContain('/api/v1/');
  });

  it('keeps only the requested version', async () => {
    const v2 = await generateValid(routes, 2);
    expect(Object.keys(v2.paths)).toEqual(['/legacy', '/users/{id}']);
    expect(Object.keys(v2.components.securitySchemes ?? {})).toEqual(['bearer']);
    const v1 = await generateValid(routes, 1);
    expect(v1.paths['/legacy']).toBeUndefined();
  });

  it('types path parameters from the template and merges declarations', async () => {
    const document = await generateValid(routes, 1);
    expect(operation(document, '/users/{id}', 'get').parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    expect(operation(document, '/orders/{orderId}/files/file.{ext}', 'get').parameters).toEqual([
      { name: 'orderId', in: 'path', required: true, schema: { type: 'string', pattern: ULID_PATTERN } },
      {
        name: 'ext',
        in: 'path',
        required: true,
        description: 'File extension',
        schema: { type: 'string', pattern: '^[a-z]{2,4}$' },
      },
    ]);
    expect(operation(document, '/codes/{code}', 'get').parameters).toEqual([
      { name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z]{3}$' } },
    ]);
    expect(ULID_PATTERN).toBe('^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$');
  });

  it('lets a declared type replace the template type and its pattern', () => {
    const document = generateOpenApi(
      [routeInfo('GET', '/items/{ulid:id}', { parameters: [{ name: 'id', in: 'path', schema: { type: 'integer' } }] })],
      1,
    );
    expect(operation(document, '/items/{id}', 'get').parameters?.[0]?.schema).toEqual({ type: 'integer' });
  });

  it('writes auth lists as alternative security requirements, scopes on bearer', async () => {
    const document = await generateValid(routes, 1);
    expect(operation(document, '/users/{id}', 'get').security).toEqual([{ bearer: ['users:read'] }]);
    expect(operation(document, '/users/search', 'get').security).toEqual([{ apiKey: [] }, { basic: [] }]);
    expect(operation(document, '/users/{id}', 'patch').security).toEqual([{ bearer: ['users:write'] }, { apiKey: [] }]);
    expect(operation(document, '/status', 'get').security).toEqual([{ apiKey: [] }, {}]);
    expect(operation(document, '/codes/{code}', 'get').security).toEqual([]);
    expect(operation(document, '/oauth/token', 'post').security).toEqual([{ client: [] }]);
  });

  it('declares only the schemes in use, with client as http basic by default', async () => {
    const document = await generateValid(routes, 1);
    expect(document.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basic: { type: 'http', scheme: 'basic' },
      client: { type: 'http', scheme: 'basic' },
    });
    const publicOnly = await generateValid([routeInfo('GET', '/', { auth: ['none'] })], 1);
    expect(publicOnly.components.securitySchemes).toBeUndefined();
  });

  it('makes client an oauth2 client-credentials flow with the union of scopes when tokenUrl is set', async () => {
    const tokenUrl = 'https://auth.example.com/oauth/token';
    const withScopedClient = [
      ...routes,
      routeInfo('POST', '/reports', { auth: ['client', 'none'], scopes: ['reports'] }),
    ];
    const document = await generateValid(withScopedClient, 1, { tokenUrl });
    expect(document.components.securitySchemes?.['client']).toEqual({
      type: 'oauth2',
      flows: {
        clientCredentials: { tokenUrl, scopes: { reports: '', 'users:read': '', 'users:write': '' } },
      },
    });
    expect(operation(document, '/reports', 'post').security).toEqual([{ client: ['reports'] }, {}]);
  });

  it('derives unique operationIds and keeps declared ones', async () => {
    const document = await generateValid(
      [...routes, routeInfo('GET', '/users/{id}/x', {}), routeInfo('GET', '/users-by/id/x', {})],
      1,
    );
    expect(operation(document, '/users/{id}', 'get').operationId).toBe('getUsersById');
    expect(operation(document, '/users/{id}', 'patch').operationId).toBe('patchUsersById');
    expect(operation(document, '/orders/{orderId}/files/file.{ext}', 'get').operationId).toBe(
      'getOrdersByOrderIdFilesFileByExt',
    );
    expect(operation(document, '/', 'get').operationId).toBe('getRoot');
    expect(operation(document, '/status', 'head').operationId).toBe('headStatus');
    expect(operation(document, '/oauth/token', 'post').operationId).toBe('issueToken');
    // Clashing derived ids are numbered in sorted path order ('-' sorts before '/').
    expect(operation(document, '/users-by/id/x', 'get').operationId).toBe('getUsersByIdX');
    expect(operation(document, '/users/{id}/x', 'get').operationId).toBe('getUsersByIdX2');
  });

  it('refuses duplicate declared operationIds', () => {
    const twice = [routeInfo('GET', '/a', { operationId: 'same' }), routeInfo('GET', '/b', { operationId: 'same' })];
    expect(() => generateOpenApi(twice, 1)).toThrow(ConfigurationError);
  });

  it('documents summary, tags, bodies and the shared error responses', async () => {
    const document = await generateValid(routes, 1);
    const getUser = operation(document, '/users/{id}', 'get');
    expect(getUser.summary).toBe('One user');
    expect(getUser.tags).toEqual(['users']);
    expect(getUser.requestBody).toBeUndefined();
    expect(Object.keys(getUser.responses)).toEqual(['200', '401', '403', '404']);
    expect(getUser.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });

    const token = operation(document, '/oauth/token', 'post');
    expect(Object.keys(token.requestBody?.content ?? {})).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.keys(token.responses)).toEqual(['200', '400', '401', '404']);
    expect(Object.keys(operation(document, '/codes/{code}', 'get').responses)).toEqual(['200', '404']);

    expect(document.components.schemas['Error']).toMatchObject({
      required: ['error'],
      properties: { error: { required: ['code', 'message'] } },
    });
    expect(document.components.responses['NotFound']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });

  it('is deterministic: sorted paths and the same output whatever the input order', async () => {
    const document = await generateValid(routes, 1);
    const paths = Object.keys(document.paths);
    expect(paths).toEqual([...paths].sort());
    expect(Object.keys(document.paths['/users/{id}'] ?? {})).toEqual(['get', 'patch']);
    const shuffled = [...routes].reverse();
    expect(JSON.stringify(generateOpenApi(shuffled, 1))).toBe(JSON.stringify(document));
  });

  it('fails with the route source for declarations outside the path and for ambiguous paths', () => {
    const stray = routeInfo('GET', '/a/{id}', {
      parameters: [{ name: 'other', in: 'path', schema: { type: 'string' } }],
    });
    expect(() => generateOpenApi([stray], 1)).toThrow(
      /"other" is declared for GET \/a\/\{id\} \(V1\/test\.ts#\/a\/\{id\}\)/,
    );
    const ambiguous = [routeInfo('GET', '/a/{int:id}'), routeInfo('GET', '/a/{id}')];
    expect(() => generateOpenApi(ambiguous, 1)).toThrow(/GET \/a\/\{id\} is ambiguous/);
  });
});
