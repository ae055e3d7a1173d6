// A typed identity from authentication: what a bearer verifier or a client repository returns as `identity` reaches
// handlers as `ctx.identity`, typed at compile time from the verifier's and repository's return types.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createServer,
  routes,
  signToken,
  Token,
  Unauthorized,
  type Authenticated,
  type RequestContext,
} from '../../src/index.js';

interface Caller {
  readonly clientId: string;
  readonly educationOrganizationIds: readonly number[];
}

interface Device {
  readonly serial: string;
}

const callers = new Map<string, Caller>([['token-a', { clientId: 'a', educationOrganizationIds: [255901] }]]);

const options = {
  bearerVerifier: async (token: string): Promise<Authenticated<Caller>> => {
    const caller = callers.get(token);
    if (caller === undefined) throw new Unauthorized('Invalid token');
    return { identity: caller, clientId: caller.clientId, scopes: ['read'] };
  },
  clientRepository: {
    validateApiKey: (key: string): Authenticated<Device> | false =>
      key === 'device-key' ? { identity: { serial: 'D-1' } } : false,
    validate: (id: string, secret: string) => id === 'admin' && secret === 'secret-for-admin',
  },
} as const;

const route = routes<typeof options>();

describe('ctx.identity', () => {
  it('is what the bearer verifier returned, typed from its return type', async () => {
    const server = await createServer(options);
    server.addRoutes(1, [
      route.get('/me', { auth: ['bearer'], scopes: ['read'] }, (ctx) => {
        expectTypeOf(ctx.identity).toEqualTypeOf<Caller>();
        return { client: ctx.identity.clientId, edOrgs: ctx.identity.educationOrganizationIds };
      }),
    ]);
    const response = await server.inject({ url: '/api/v1/me', headers: { authorization: 'Bearer token-a' } });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ client: 'a', edOrgs: [255901] });
    const rejected = await server.inject({ url: '/api/v1/me', headers: { authorization: 'Bearer token-b' } });
    expect(rejected.status).toBe(401);
  });

  it('is the union of the identities of the schemes a route accepts, and undefined on public routes', async () => {
    const server = await createServer(options);
    server.addRoutes(1, [
      route.get('/either', { auth: ['apiKey', 'bearer'] }, (ctx) => {
        expectTypeOf(ctx.identity).toEqualTypeOf<Device | Caller>();
        return ctx.identity;
      }),
      route.get('/admin', { auth: ['basic'] }, (ctx) => {
        expectTypeOf(ctx.identity).toEqualTypeOf<undefined>();
        return { identity: ctx.identity ?? null, client: ctx.auth.clientId };
      }),
      route.get('/public', { auth: ['none'] }, (ctx) => {
        expectTypeOf(ctx.identity).toEqualTypeOf<undefined>();
        return { identity: ctx.identity ?? null };
      }),
    ]);
    const device = await server.inject({ url: '/api/v1/either', headers: { 'x-api-key': 'device-key' } });
    expect(device.json()).toEqual({ serial: 'D-1' });
    const caller = await server.inject({ url: '/api/v1/either', headers: { authorization: 'Bearer token-a' } });
    expect(caller.json()).toEqual({ clientId: 'a', educationOrganizationIds: [255901] });
    const basic = Buffer.from('admin:secret-for-admin').toString('base64');
    const admin = await server.inject({ url: '/api/v1/admin', headers: { authorization: `Basic ${basic}` } });
    expect(admin.json()).toEqual({ identity: null, client: 'admin' });
    expect((await server.inject({ url: '/api/v1/public' })).json()).toEqual({ identity: null });
  });

  it('follows the default schemes for routes that name none', async () => {
    const server = await createServer(options);
    server.addRoutes(1, [
      route.get('/default', (ctx) => {
        expectTypeOf(ctx.identity).toEqualTypeOf<Caller>();
        return { client: ctx.identity.clientId };
      }),
    ]);
    const response = await server.inject({ url: '/api/v1/default', headers: { authorization: 'Bearer token-a' } });
    expect(response.json()).toEqual({ client: 'a' });
  });

  it('is the verified Token for the JWT verifier of hashKey, and server.route is typed from the options', async () => {
    const hashKey = 'identity-test-secret-0123456789abcdef';
    const server = await createServer({ hashKey, jwt: { requireExp: false } });
    server.addRoutes(1, [
      server.route.get('/token', (ctx) => {
        expectTypeOf(ctx.identity).toEqualTypeOf<Token>();
        return { sub: ctx.identity.get('sub') };
      }),
    ]);
    const token = signToken({ sub: 'user-1' }, { hashKey });
    const response = await server.inject({ url: '/api/v1/token', headers: { authorization: `Bearer ${token}` } });
    expect(response.json()).toEqual({ sub: 'user-1' });
  });

  it('keeps handlers of other identities out at compile time', () => {
    type CallerContext = RequestContext<Record<string, never>, Caller>;
    expectTypeOf<RequestContext<Record<string, never>, Device>>().not.toMatchTypeOf<CallerContext>();
  });
});
