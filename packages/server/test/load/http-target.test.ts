import { describe, expect, it } from 'vitest';
import { createHttpTarget, LoadAbortedError, type FetchLike, type FetchRequest } from '../../src/load/index.js';
import { TokenSource } from '../../src/load/target/token-source.js';
import { getModelRegistry } from '../../src/model/index.js';

const BASE = 'https://api.example/v7.3/api';
const FAST_RETRY = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
const students = getModelRegistry().getResource('ed-fi', 'students')!;
const signal = new AbortController().signal;

interface Call {
  readonly url: string;
  readonly request: FetchRequest;
}

type Reply = { status: number; body?: string; headers?: Record<string, string> } | Error;

/** A fetch answering token requests with numbered tokens and data requests from a script. */
function scriptedFetch(dataReplies: Reply[], tokenLifetime = 1800): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  let tokens = 0;
  const fetch: FetchLike = (url, request) => {
    calls.push({ url, request });
    const reply: Reply = url.endsWith('/oauth/token')
      ? { status: 200, body: JSON.stringify({ access_token: `token-${++tokens}`, expires_in: tokenLifetime }) }
      : (dataReplies.shift() ?? { status: 201 });
    if (reply instanceof Error) return Promise.reject(reply);
    return Promise.resolve({
      status: reply.status,
      headers: { get: (name: string) => reply.headers?.[name.toLowerCase()] ?? null },
      text: () => Promise.resolve(reply.body ?? ''),
    });
  };
  return { fetch, calls };
}

describe('the HTTP target', () => {
  it('gets a client-credentials token once and POSTs each document to its resource route', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 201 }, { status: 200 }]);
    const target = createHttpTarget({ url: `${BASE}/`, key: 'k', secret: 's', fetch, retry: FAST_RETRY });
    expect(await target.post(students, { studentUniqueId: '1' }, signal)).toEqual({ status: 201, body: '' });
    expect(await target.post(students, { studentUniqueId: '2' }, signal)).toEqual({ status: 200, body: '' });

    expect(calls.map((call) => `${call.request.method} ${call.url}`)).toEqual([
      `POST ${BASE}/oauth/token`,
      `POST ${BASE}/data/v3/ed-fi/students`,
      `POST ${BASE}/data/v3/ed-fi/students`,
    ]);
    expect(calls[0]!.request).toMatchObject({
      headers: { Authorization: `Basic ${Buffer.from('k:s').toString('base64')}` },
      body: 'grant_type=client_credentials',
    });
    expect(calls[1]!.request).toMatchObject({
      headers: { Authorization: 'Bearer token-1', 'Content-Type': 'application/json' },
      body: '{"studentUniqueId":"1"}',
    });
  });

  it('retries network errors, 429 and 5xx, then answers the last result', async () => {
    const { fetch, calls } = scriptedFetch([
      new TypeError('fetch failed'),
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 503 },
      { status: 201 },
      { status: 500 },
      { status: 500 },
      { status: 502 },
      { status: 504, body: 'gateway' },
    ]);
    const target = createHttpTarget({ url: BASE, key: 'k', secret: 's', fetch, retry: FAST_RETRY });
    expect(await target.post(students, {}, signal)).toEqual({ status: 201, body: '' });
    expect(await target.post(students, {}, signal)).toEqual({ status: 504, body: 'gateway' });
    expect(calls).toHaveLength(1 + 4 + 4);
  });

  it('does not retry client errors, and reports a network failure as status 0', async () => {
    const { fetch } = scriptedFetch([
      { status: 400, body: '{"type":"urn:ed-fi:api:bad-request"}' },
      ...Array.from({ length: 4 }, () => new TypeError('connection refused')),
    ]);
    const target = createHttpTarget({ url: BASE, key: 'k', secret: 's', fetch, retry: FAST_RETRY });
    expect(await target.post(students, {}, signal)).toEqual({
      status: 400,
      body: '{"type":"urn:ed-fi:api:bad-request"}',
    });
    expect(await target.post(students, {}, signal)).toEqual({ status: 0, body: 'connection refused' });
  });

  it('renews the token on a 401 and sends again; a fresh token refused too stops the load', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 401 }, { status: 201 }, { status: 401 }, { status: 401 }]);
    const target = createHttpTarget({ url: BASE, key: 'k', secret: 's', fetch, retry: FAST_RETRY });
    expect((await target.post(students, {}, signal)).status).toBe(201);
    expect(calls.map((call) => call.request.headers.Authorization)).toEqual([
      expect.stringMatching(/^Basic /),
      'Bearer token-1',
      expect.stringMatching(/^Basic /),
      'Bearer token-2',
    ]);
    await expect(target.post(students, {}, signal)).rejects.toThrow(/refused a freshly issued token/);
  });

  it('stops the load when the token endpoint refuses the credentials', async () => {
    const fetch: FetchLike = () =>
      Promise.resolve({
        status: 401,
        headers: { get: () => null },
        text: () => Promise.resolve('{"error":"invalid_client"}'),
      });
    const target = createHttpTarget({ url: BASE, key: 'k', secret: 'wrong', fetch, retry: FAST_RETRY });
    await expect(target.post(students, {}, signal)).rejects.toThrow(LoadAbortedError);
    await expect(target.post(students, {}, signal)).rejects.toThrow(/refused \(401\).*invalid_client/);
  });
});

describe('the token source', () => {
  it('shares one token request between concurrent callers and renews the token before it expires', async () => {
    const { fetch, calls } = scriptedFetch([], 600);
    let now = 0;
    const tokens = new TokenSource({
      tokenUrl: `${BASE}/oauth/token`,
      key: 'k',
      secret: 's',
      fetch,
      retry: FAST_RETRY,
      now: () => now,
    });
    expect(await Promise.all([tokens.token(signal), tokens.token(signal), tokens.token(signal)])).toEqual([
      'token-1',
      'token-1',
      'token-1',
    ]);
    now = 530_000; // 70 s before expiry: still fine
    expect(await tokens.token(signal)).toBe('token-1');
    now = 545_000; // within the last 60 s (10% of 600 s): renewed ahead of expiry
    expect(await tokens.token(signal)).toBe('token-2');
    tokens.invalidate('token-1'); // a stale 401 does not throw away the newer token
    expect(await tokens.token(signal)).toBe('token-2');
    tokens.invalidate('token-2');
    expect(await tokens.token(signal)).toBe('token-3');
    expect(calls).toHaveLength(3);
  });
});
