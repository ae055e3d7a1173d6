// Throttled credential checks (issue 14, defect 4): per key and per address, failed checks (and those still running)
// are limited; over the limit 429 with Retry-After, without computing a hash; the admin API's Basic check too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import { listen, type Listener } from '../../src/cli/http-listener.js';
import { createEdFiApp } from '../../src/http/app.js';
import { createClient } from '../../src/security/index.js';
import { openStore, type Store } from '../../src/store/index.js';

const BASE = '/v7.3/api';
const SECRET = 'a-test-secret-of-thirty-two-chars!';
const ADMIN = { key: 'admin', secret: 'an-admin-secret-that-is-long-enough' };
const silent = { info() {}, warn() {}, error() {} };

let store: Store;
let app: ApiServer;
let listener: Listener;

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  for (const key of ['attacked', 'legitimate', 'socket']) await createClient(store, { key, secret: SECRET });
  app = await createEdFiApp({ store, logger: silent, admin: ADMIN });
  listener = await listen(app.handler, { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await listener.close();
  await store.close();
});

const tokenBody = (key: string, secret: string) =>
  new URLSearchParams({ grant_type: 'client_credentials', client_id: key, client_secret: secret }).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function injectToken(key: string, secret: string) {
  return app.inject({ method: 'POST', url: `${BASE}/oauth/token`, headers: FORM, body: tokenBody(key, secret) });
}

function expectTooMany(response: { status: number; headers: Record<string, unknown>; body: string }): void {
  expect(response.status).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(JSON.parse(response.body)).toMatchObject({
    type: 'urn:ed-fi:api:security:authentication:too-many-failed-attempts',
    status: 429,
  });
}

describe('POST /oauth/token with wrong secrets', () => {
  it('refuses a key beyond 10 failed (or running) checks with 429, and does not hold back other keys', async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, () => injectToken('attacked', 'wrong-secret')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    for (const response of responses.filter((each) => each.status !== 401)) expectTooMany(response);
    // Even the right secret waits out the window for this key; another client is served at once.
    expectTooMany(await injectToken('attacked', SECRET));
    expect((await injectToken('legitimate', SECRET)).status).toBe(200);
  });

  it('refuses an address beyond 20 failed checks, whatever keys it tries', async () => {
    const post = (key: string, secret: string) =>
      fetch(`http://127.0.0.1:${listener.port}${BASE}/oauth/token`, {
        method: 'POST',
        headers: FORM,
        body: tokenBody(key, secret),
      });
    const responses = await Promise.all(Array.from({ length: 25 }, (_, index) => post(`guess-${index}`, 'x')));
    expect(responses.filter((response) => response.status === 401)).toHaveLength(20);
    const refused = responses.filter((response) => response.status === 429);
    expect(refused).toHaveLength(5);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A correct secret from that address waits too: the address, not the key, is over its limit.
    expect((await post('socket', SECRET)).status).toBe(429);
  });
});

describe('the admin API Basic check', () => {
  it('answers 429 after 10 wrong secrets for the admin key', async () => {
    const clients = (secret: string) =>
      app.inject({
        method: 'GET',
        url: `${BASE}/admin/clients`,
        headers: { authorization: `Basic ${Buffer.from(`${ADMIN.key}:${secret}`).toString('base64')}` },
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) statuses.push((await clients('wrong')).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    expectTooMany(await clients(ADMIN.secret));
  });
});
