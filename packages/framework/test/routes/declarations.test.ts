import { describe, expect, it } from 'vitest';
import {
  ApiScope,
  Auth,
  ConfigurationError,
  Container,
  createServer,
  createToken,
  Get,
  Parameter,
  Post,
  route,
  type RequestContext,
} from '../../src/index.js';

const logger = { info() {}, warn() {}, error() {} };
const hashKey = 'a-test-hash-key-of-at-least-32-bytes';
const clientRepository = { validate: () => true, validateApiKey: () => true };
const Greeting = createToken<string>('Greeting');

class Greeter {
  static inject = [Greeting] as const;
  constructor(private readonly greeting: string) {}
  greet(name: string): string {
    return `${this.greeting}, ${name}`;
  }
}

class ItemsController {
  static inject = [Greeter] as const;
  constructor(private readonly greeter: Greeter) {}

  @Get('/items/search', { auth: ['none'] })
  search() {
    return { kind: 'search' };
  }

  @Get('/items/{code}', { auth: ['none'] })
  @Parameter({ name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Z]{3}$' } })
  byCode(ctx: RequestContext<{ code: string }>) {
    return { kind: 'code', code: ctx.params.code };
  }

  @Get('/items/{int:id}', { auth: ['none'] })
  byId(ctx: RequestContext<{ id: number }>) {
    return { kind: 'id', id: ctx.params.id };
  }

  @Get('/hello/{name}', { auth: ['none'] })
  hello(ctx: RequestContext<{ name: string }>) {
    return { text: this.greeter.greet(ctx.params.name) };
  }

  @Post('/items')
  @Auth('apiKey', 'basic')
  @Auth('client')
  @ApiScope('write')
  create() {
    return { created: true };
  }
}

async function controllerServer() {
  const container = new Container();
  container.register(Greeting, { useValue: 'Hi' });
  const server = await createServer({
    logger,
    clientRepository,
    container,
    routes: [{ version: 1, source: 'items.ts', exports: { ItemsController } }],
  });
  return server;
}

describe('decorated controllers', () => {
  it('are built by the container and route static before typed before plain parameters', async () => {
    const server = await controllerServer();
    expect((await server.inject({ url: '/api/v1/items/search' })).json()).toEqual({ kind: 'search' });
    expect((await server.inject({ url: '/api/v1/ITEMS/Search' })).json()).toEqual({ kind: 'search' });
    expect((await server.inject({ url: '/api/v1/items/12' })).json()).toEqual({ kind: 'id', id: 12 });
    expect((await server.inject({ url: '/api/v1/items/ABC' })).json()).toEqual({ kind: 'code', code: 'ABC' });
    expect((await server.inject({ url: '/api/v1/items/abcd' })).status).toBe(404);
    expect((await server.inject({ url: '/api/v1/hello/Ada%20L' })).json()).toEqual({ text: 'Hi, Ada L' });
  });

  it('keep stacked @Auth decorators in source order and collect scopes', async () => {
    const server = await controllerServer();
    const create = server.routes().find((r) => r.method === 'POST');
    expect(create?.auth).toEqual(['apiKey', 'basic', 'client']);
    expect(create?.scopes).toEqual(['write']);
    expect(create?.source).toBe('items.ts ItemsController.create');
  });

  it('reject handlers whose parameter types disagree with the path template at compile time', () => {
    class Wrong {
      // @ts-expect-error {int:id} delivers a number, not a string
      @Get('/users/{int:id}')
      byId(ctx: RequestContext<{ id: string }>) {
        return ctx.params.id;
      }
    }
    expect(Wrong).toBeDefined();
    // @ts-expect-error route.* infers { id: number } too
    route.get('/users/{int:id}', (ctx: RequestContext<{ id: string }>) => ctx.params.id);
  });
});

describe('programmatic registration', () => {
  it('infers parameter types and serves routes for the versions they declare', async () => {
    const server = await createServer({ logger });
    server.addRoutes(1, [
      route.get('/both/{int:n}', { auth: ['none'], versions: [1, 2] }, (ctx) => {
        const doubled: number = ctx.params.n * 2;
        return { doubled, version: ctx.version };
      }),
    ]);
    expect((await server.inject({ url: '/api/v1/both/21' })).json()).toEqual({ doubled: 42, version: 1 });
    expect((await server.inject({ url: '/api/v2/both/1' })).json()).toEqual({ doubled: 2, version: 2 });
  });

  it('fails on a duplicate route, naming both declarations', async () => {
    const server = await createServer({ logger, hashKey });
    server.addRoutes(1, [{ ...route.get('/a/{x}', () => 1), source: 'first.ts' }]);
    expect(() => server.addRoutes(1, [{ ...route.get('/A/{y}', () => 2), source: 'second.ts' }])).toThrow(
      ConfigurationError,
    );
    expect(() => server.addRoutes(1, [{ ...route.get('/a/{z}', () => 2), source: 'second.ts' }])).toThrow(
      /first\.ts[\s\S]*second\.ts|second\.ts[\s\S]*first\.ts/,
    );
  });

  it('rejects an unknown parameter type prefix at start-up', async () => {
    const server = await createServer({ logger, hashKey });
    expect(() => server.addRoutes(1, [route.get('/x/{float:f}', () => 1)])).toThrow(ConfigurationError);
  });
});

describe('custom base URI', () => {
  it('accepts a PCRE-style string with (?P<…>) groups and a path without a leading slash', async () => {
    const server = await createServer({ logger, baseUriRegex: '#^/service/(?P<Version>\\d+)/(?P<Path>.*)$#' });
    server.addRoutes(3, [route.get('/ping', { auth: ['none'] }, (ctx) => ({ version: ctx.version }))]);
    expect((await server.inject({ url: '/service/3/ping' })).json()).toEqual({ version: 3 });
    expect((await server.inject({ url: '/service/03/ping?x=1' })).json()).toEqual({ version: 3 });
    expect((await server.inject({ url: '/api/v3/ping' })).status).toBe(404);
  });
});
