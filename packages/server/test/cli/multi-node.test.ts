// Several `serve` processes on one PostgreSQL database, as nodes behind a load balancer: a token issued by one works on
// the other, writes are read across nodes, a client's snapshot is the same on both, a revocation reaches the other
// node within its token-cache TTL, racing writes spread over both nodes settle as on one; and `--workers` forks
// processes that all serve requests.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { leaDocument } from '../support/documents.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { runCli, startServe, type RunningServer } from './support.js';

const SLOW = { timeout: 60_000 };
const ADMIN = { EDFI_ADMIN_KEY: 'operator', EDFI_ADMIN_SECRET: 'operator-secret-of-the-multi-node-test' };
const TOKEN_CACHE_TTL_SECONDS = 1;
const PARALLEL_REQUESTS = 20;

/** A descriptor value: in the sandbox client's namespace, whatever its education organizations. */
function descriptor(codeValue: string, shortDescription = codeValue) {
  return { namespace: 'uri://ed-fi.org/GradeLevelDescriptor', codeValue, shortDescription };
}

function baseOf(node: RunningServer): string {
  return `http://localhost:${node.port}/v7.3/api`;
}

async function tokenFrom(node: RunningServer, key: string, secret: string): Promise<string> {
  const response = await fetch(`${baseOf(node)}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key, client_secret: secret }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function credentialsIn(banner: string): [string, string] {
  const [key, secret] = ['Key', 'Secret'].map((label) => new RegExp(`${label}:\\s+(\\S+)`).exec(banner)?.[1]);
  return [key!, secret!];
}

describePostgres('several serve processes on one PostgreSQL database', () => {
  const newSchema = schemasDroppedAfterAll();
  let nodes: RunningServer[];
  let token: string;
  let key: string;

  beforeAll(async () => {
    const spec = postgresSpec(newSchema('edfi_nodes'));
    const options = ['--port', '0', '--store', spec, '--token-cache-ttl', String(TOKEN_CACHE_TTL_SECONDS)];
    const first = await startServe(options, ADMIN);
    const second = await startServe(options, ADMIN);
    nodes = [first, second];
    let secret: string;
    [key, secret] = credentialsIn(await first.waitForStderr('Secret:'));
    token = await tokenFrom(first, key, secret);
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes) expect(await node.stop()).toBe(0);
  }, 30_000);

  function send(
    node: number,
    method: string,
    path: string,
    init: { body?: unknown; ifMatch?: string; snapshot?: boolean } = {},
  ) {
    return fetch(`${baseOf(nodes[node % nodes.length]!)}/data/v3/ed-fi${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.ifMatch === undefined ? {} : { 'if-match': init.ifMatch }),
        ...(init.snapshot ? { 'use-snapshot': 'true' } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  }

  it('accepts on one node the token the other issued, and reads on one what the other wrote', SLOW, async () => {
    const created = await send(0, 'POST', '/gradeLevelDescriptors', { body: descriptor('node-a') });
    expect(created.status).toBe(201);
    const id = new URL(created.headers.get('location')!).pathname.split('/').pop();
    const read = await send(1, 'GET', `/gradeLevelDescriptors/${id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id, ...descriptor('node-a') });
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('creates one item for racing POSTs of one natural key spread over both nodes', SLOW, async () => {
    const responses = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, (_, index) =>
        send(index, 'POST', '/gradeLevelDescriptors', { body: descriptor('race-post', `Racer ${index}`) }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array<number>(PARALLEL_REQUESTS - 1).fill(200), 201]);
    const listed = (await (await send(1, 'GET', '/gradeLevelDescriptors?codeValue=race-post')).json()) as unknown[];
    expect(listed).toHaveLength(1);
  });

  it('lets exactly one of racing PUTs with one If-Match through, across both nodes', SLOW, async () => {
    const created = await send(1, 'POST', '/gradeLevelDescriptors', { body: descriptor('race-put') });
    expect(created.status).toBe(201);
    const path = `/gradeLevelDescriptors/${new URL(created.headers.get('location')!).pathname.split('/').pop()}`;
    const ifMatch = created.headers.get('etag')!;
    const responses = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, (_, index) =>
        send(index, 'PUT', path, { body: descriptor('race-put', `Writer ${index}`), ifMatch }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort((a, b) => a - b);
    expect(statuses).toEqual([204, ...Array<number>(PARALLEL_REQUESTS - 1).fill(412)]);
  });

  it("reads one client's snapshot on either node, and follows its renewal made on the other", SLOW, async () => {
    const snapshotList = async (node: number): Promise<unknown[]> => {
      const response = await send(node, 'GET', '/gradeLevelDescriptors?codeValue=after-snapshot', { snapshot: true });
      expect(response.status).toBe(200);
      return (await response.json()) as unknown[];
    };
    expect(await snapshotList(0)).toEqual([]);
    expect((await send(0, 'POST', '/gradeLevelDescriptors', { body: descriptor('after-snapshot') })).status).toBe(201);
    // Live reads see the new item; the session's snapshot, opened on the first node, does not, on either node.
    expect(await (await send(1, 'GET', '/gradeLevelDescriptors?codeValue=after-snapshot')).json()).toHaveLength(1);
    expect(await snapshotList(1)).toEqual([]);
    expect(await snapshotList(0)).toEqual([]);
    // availableChangeVersions with Use-Snapshot renews the session's snapshot; the other node follows.
    const renewed = await fetch(`${baseOf(nodes[1]!)}/changeQueries/v1/availableChangeVersions`, {
      headers: { authorization: `Bearer ${token}`, 'use-snapshot': 'true' },
    });
    expect(renewed.status).toBe(200);
    expect(await snapshotList(0)).toHaveLength(1);
    expect(await snapshotList(1)).toHaveLength(1);
  });

  // The other node's descriptor cache still holds the value: the write finds it gone and is refused as a write racing
  // the deletion on one node is (409), never stored.
  it('refuses on one node a descriptor it knew that the other node deleted', SLOW, async () => {
    const category = 'uri://ed-fi.org/LocalEducationAgencyCategoryDescriptor';
    const created = await send(0, 'POST', '/localEducationAgencyCategoryDescriptors', {
      body: { namespace: category, codeValue: 'Node', shortDescription: 'Node' },
    });
    expect(created.status).toBe(201);
    const lea = (descriptorUri: string) => ({
      ...leaDocument,
      localEducationAgencyCategoryDescriptor: descriptorUri,
    });
    expect((await send(0, 'POST', '/localEducationAgencies', { body: lea(`${category}#Node`) })).status).toBe(201);
    expect((await send(0, 'POST', '/localEducationAgencies', { body: lea(`${category}#Independent`) })).status).toBe(
      200,
    );
    const descriptorPath = new URL(created.headers.get('location')!).pathname.split('/data/v3/ed-fi')[1]!;
    expect((await send(1, 'DELETE', descriptorPath)).status).toBe(204);
    const refused = await send(0, 'POST', '/localEducationAgencies', { body: lea(`${category}#Node`) });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      type: 'urn:ed-fi:api:data-conflict:unresolved-reference',
      detail: "The referenced 'LocalEducationAgencyCategoryDescriptor' item does not exist.",
    });
    const [stored] = (await (await send(0, 'GET', '/localEducationAgencies')).json()) as { [name: string]: unknown }[];
    expect(stored?.localEducationAgencyCategoryDescriptor).toBe(`${category}#Independent`);
  });

  it('refuses on the other node, within the token-cache TTL, a client revoked on one node', SLOW, async () => {
    // The second node has the token cached from the tests above; make sure of it.
    expect((await send(1, 'GET', '/gradeLevelDescriptors?limit=1')).status).toBe(200);
    const revoked = await fetch(`${baseOf(nodes[0]!)}/admin/clients/${key}`, {
      method: 'DELETE',
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN.EDFI_ADMIN_KEY}:${ADMIN.EDFI_ADMIN_SECRET}`).toString('base64')}`,
      },
    });
    expect(revoked.status).toBeLessThan(300);
    const revokedAt = performance.now();
    expect((await send(0, 'GET', '/gradeLevelDescriptors?limit=1')).status).toBe(401);
    let status = 200;
    while (status !== 401 && performance.now() - revokedAt < (TOKEN_CACHE_TTL_SECONDS + 5) * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await send(1, 'GET', '/gradeLevelDescriptors?limit=1')).status;
    }
    expect(status).toBe(401);
    // Within the TTL, plus the time one request takes on this shared machine.
    expect(performance.now() - revokedAt).toBeLessThan(TOKEN_CACHE_TTL_SECONDS * 1000 + 1000);
  });
});

/** A GET on a connection of its own, so that the cluster hands each to the next worker. */
function getOnNewConnection(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    })
      .on('error', reject)
      .end();
  });
}

describePostgres('serve --workers on PostgreSQL', () => {
  const newSchema = schemasDroppedAfterAll();

  it('forks the workers asked for, each opening the database and serving requests', SLOW, async () => {
    const spec = postgresSpec(newSchema('edfi_workers'));
    expect((await runCli(['migrate', '--store', spec])).code).toBe(0);
    const server = await startServe(['--port', '0', '--store', spec, '--workers', '2']);
    try {
      const answeredBy = () =>
        new Set(
          server
            .logEntries()
            .filter((entry) => entry.msg === 'request')
            .map((entry) => entry.pid),
        );
      for (let attempt = 0; attempt < 40 && answeredBy().size < 2; attempt++) {
        expect(await getOnNewConnection(`${baseOf(server)}/`)).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(answeredBy().size).toBe(2);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
