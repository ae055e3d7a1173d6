// Concurrent writes over real sockets, against two servers sharing one database (as two worker processes or nodes do):
// racing POSTs of one natural key create exactly one item, racing PUTs with one If-Match let exactly one through.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { studentDocument } from '../support/documents.js';
import { describeEachStore } from '../support/each-store.js';
import { DATA_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const PARALLEL_REQUESTS = 20;

describeEachStore('concurrent writes', (stores) => {
  let servers: EdFiTestServer[];
  let urls: string[];

  beforeAll(async () => {
    const spec = await stores.newSpec({ shared: true });
    const first = await startEdFiServer({ store: spec, seed: false });
    const second = await startEdFiServer({ store: spec, seed: false });
    servers = [first, second];
    urls = await Promise.all(
      servers.map(async ({ server }) => `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}${DATA_PATH}`),
    );
  });

  afterAll(async () => {
    for (const { server, close } of servers) {
      await server.close();
      await close();
    }
  });

  /** Spreads requests over both servers, each with its own token. */
  function send(
    index: number,
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const server = index % servers.length;
    return fetch(`${urls[server]}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${servers[server]!.token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  }

  it('create one item for racing POSTs of one natural key', async () => {
    const body = { ...studentDocument, studentUniqueId: 'race-post' };
    const responses = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, (_, index) =>
        send(index, 'POST', '/ed-fi/students', { body: { ...body, firstName: `Racer ${index}` } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array<number>(PARALLEL_REQUESTS - 1).fill(200), 201]);
    // Each server names itself in Location; the item is the same.
    const items = new Set(responses.map((response) => new URL(response.headers.get('location')!).pathname));
    expect(items.size).toBe(1);
    const listed = (await (await send(0, 'GET', '/ed-fi/students?studentUniqueId=race-post')).json()) as unknown[];
    expect(listed).toHaveLength(1);
  });

  it('let exactly one of racing PUTs with the same If-Match through; the others get 412', async () => {
    const created = await send(0, 'POST', '/ed-fi/students', {
      body: { ...studentDocument, studentUniqueId: 'race-put' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-length')).toBe('0');
    const location = new URL(created.headers.get('location')!);
    const etag = created.headers.get('etag')!;
    const responses = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, (_, index) =>
        send(index, 'PUT', location.pathname.slice(DATA_PATH.length), {
          body: { ...studentDocument, studentUniqueId: 'race-put', firstName: `Writer ${index}` },
          headers: { 'if-match': etag },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort((a, b) => a - b);
    expect(statuses).toEqual([204, ...Array<number>(PARALLEL_REQUESTS - 1).fill(412)]);
    const problem = (await responses.find((response) => response.status === 412)!.json()) as { type: string };
    expect(problem.type).toBe('urn:ed-fi:api:optimistic-lock-failed');
  });
});
