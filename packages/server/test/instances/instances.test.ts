// ODS instances (contract §9.3): two instances of one tenant on two PostgreSQL databases, behind context routes, and a
// second tenant on SQLite. Data, clients and change versions never cross; discovery shows the tenant and context
// (§1.2); an unknown tenant or context is a 404 not-found problem (§6.3); a client's token works on the instances it
// is bound to and is a 404 on the others of its tenant.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listen, type Listener } from '../../src/cli/http-listener.js';
import { parseInstancesConfig, type InstancesConfig } from '../../src/instances/instances-file.js';
import { openInstances, type OpenedInstances } from '../../src/instances/index.js';
import { createClient } from '../../src/security/index.js';
import { openStoreCreatingFolder } from '../../src/setup/store-location.js';
import {
  databasesDroppedAfterAll,
  describePostgres,
  postgresSpec,
  schemasDroppedAfterAll,
} from '../support/postgres.js';

const SLOW = { timeout: 60_000 };
const BASE = '/v7.3/api';
const SECRET = 'a-secret-of-the-instances-test-with-32-chars';
const NAMESPACE = 'uri://ed-fi.org/GradeLevelDescriptor';

interface Client {
  readonly key: string;
  readonly instances: readonly string[];
}

/** A client bound to several instances is stored in each of their stores with the same key and secret. */
const CLIENTS: readonly Client[] = [
  { key: 'both-years', instances: ['a-2024', 'a-2025'] },
  { key: 'only-2024', instances: ['a-2024'] },
  { key: 'tenant-b', instances: ['b-2024'] },
];

describePostgres('ODS instances on two PostgreSQL databases', () => {
  const newSchema = schemasDroppedAfterAll();
  const newDatabase = databasesDroppedAfterAll();
  let folder: string;
  let config: InstancesConfig;
  let opened: OpenedInstances;
  let listener: Listener;
  let origin: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'edfi-instances-'));
    const secondDatabase = await newDatabase('edfi_instance');
    config = parseInstancesConfig({
      contextRoute: '{schoolYearFromRoute:range(2000,2099)}',
      instances: [
        {
          name: 'a-2024',
          tenant: 'district-a',
          context: { schoolYearFromRoute: 2024 },
          store: postgresSpec(newSchema()),
        },
        { name: 'a-2025', tenant: 'district-a', context: { schoolYearFromRoute: '2025' }, store: secondDatabase },
        {
          name: 'b-2024',
          tenant: 'district-b',
          context: { schoolYearFromRoute: 2024 },
          store: `sqlite:${folder}/b.sqlite`,
        },
      ],
    });
    for (const client of CLIENTS) {
      for (const name of client.instances) {
        const store = await openStoreCreatingFolder(config.instances.find((instance) => instance.name === name)!.store);
        await createClient(store, { key: client.key, secret: SECRET, namespacePrefixes: ['uri://ed-fi.org'] });
        await store.close();
      }
    }
    opened = await openInstances(config, { seed: 'none' }, { basePath: BASE, logger: console });
    listener = await listen(opened.handler, { port: 0 });
    origin = `http://localhost:${listener.port}`;
  }, 60_000);

  afterAll(async () => {
    await listener?.close(500); // responses the tests did not read keep their connections busy
    await opened?.close();
    rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  async function tokenAt(root: string, key: string): Promise<Response> {
    return fetch(`${origin}${BASE}${root}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key, client_secret: SECRET }),
    });
  }

  async function token(root: string, key: string): Promise<string> {
    const response = await tokenAt(root, key);
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  function data(root: string, bearer: string, method: string, resource: string, body?: unknown) {
    return fetch(`${origin}${BASE}${root}${resource}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function newestChangeVersion(root: string, bearer: string): Promise<number> {
    const response = await data(root, bearer, 'GET', '/changeQueries/v1/availableChangeVersions');
    expect(response.status).toBe(200);
    return ((await response.json()) as { newestChangeVersion: number }).newestChangeVersion;
  }

  async function discoveryAt(root: string): Promise<Record<string, string>> {
    const response = await fetch(`${origin}${BASE}${root}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { urls: Record<string, string> }).urls;
  }

  it('shows the tenant and context in discovery, as placeholders where the request has no value', SLOW, async () => {
    expect((await discoveryAt('/')).dataManagementApi).toBe(
      `${origin}${BASE}/{tenantIdentifier}/{schoolYearFromRoute}/data/v3/`,
    );
    expect((await discoveryAt('/district-a')).oauth).toBe(
      `${origin}${BASE}/district-a/{schoolYearFromRoute}/oauth/token`,
    );
    const instance = await discoveryAt('/district-a/2024/');
    expect(instance.dataManagementApi).toBe(`${origin}${BASE}/district-a/2024/data/v3/`);
    expect(instance.changeQueries).toBe(`${origin}${BASE}/district-a/2024/changeQueries/v1/`);
  });

  it('answers an unknown tenant and an unmatched context with the not-found problem', SLOW, async () => {
    const bearer = await token('/district-a/2024', 'both-years');
    for (const root of ['/district-c/2024', '/district-a/2023', '/district-a/1999', '/district-b/2025']) {
      const response = await data(root, bearer, 'GET', '/data/v3/ed-fi/gradeLevelDescriptors');
      expect(response.status, root).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({
        type: 'urn:ed-fi:api:not-found',
        detail: 'The specified data could not be found.',
      });
    }
    expect((await fetch(`${origin}${BASE}/district-c`)).status).toBe(404);
    expect((await fetch(`${origin}${BASE}/district-c/2024/`)).status).toBe(404);
  });

  it('keeps each instance its own data, with its own change versions', SLOW, async () => {
    const bearer = await token('/district-a/2024', 'both-years');
    const before2025 = await newestChangeVersion('/district-a/2025', bearer);
    const before2024 = await newestChangeVersion('/district-a/2024', bearer);
    const ids: string[] = [];
    for (const codeValue of ['Only in 2024 one', 'Only in 2024 two', 'Only in 2024 three']) {
      const created = await data('/district-a/2024', bearer, 'POST', '/data/v3/ed-fi/gradeLevelDescriptors', {
        namespace: NAMESPACE,
        codeValue,
        shortDescription: codeValue,
      });
      expect(created.status).toBe(201);
      const location = new URL(created.headers.get('location')!);
      expect(location.pathname.startsWith(`${BASE}/district-a/2024/data/v3/ed-fi/gradeLevelDescriptors/`)).toBe(true);
      ids.push(location.pathname.split('/').pop()!);
    }
    expect(await newestChangeVersion('/district-a/2024', bearer)).toBeGreaterThanOrEqual(before2024 + 3);
    expect(await newestChangeVersion('/district-a/2025', bearer)).toBe(before2025);
    for (const id of ids) {
      expect((await data('/district-a/2024', bearer, 'GET', `/data/v3/ed-fi/gradeLevelDescriptors/${id}`)).status).toBe(
        200,
      );
      expect((await data('/district-a/2025', bearer, 'GET', `/data/v3/ed-fi/gradeLevelDescriptors/${id}`)).status).toBe(
        404,
      );
    }
    const listed = await data(
      '/district-a/2025',
      bearer,
      'GET',
      '/data/v3/ed-fi/gradeLevelDescriptors?codeValue=Only in 2024 one',
    );
    expect(await listed.json()).toEqual([]);
  });

  it('lets a token work only on the instances its client is bound to', SLOW, async () => {
    const both = await token('/district-a/2025', 'both-years');
    const only2024 = await token('/district-a/2024', 'only-2024');
    const list = '/data/v3/ed-fi/gradeLevelDescriptors';
    expect((await data('/district-a/2024', both, 'GET', list)).status).toBe(200);
    expect((await data('/district-a/2025', both, 'GET', list)).status).toBe(200);
    expect((await data('/district-a/2024', only2024, 'GET', list)).status).toBe(200);
    // Bound to another instance of the tenant: 404, as the ODS finds no instance for the client and context.
    const unbound = await data('/district-a/2025', only2024, 'GET', list);
    expect(unbound.status).toBe(404);
    expect(await unbound.json()).toMatchObject({ type: 'urn:ed-fi:api:not-found' });
    // Another tenant knows neither the client nor its token.
    expect((await data('/district-b/2024', both, 'GET', list)).status).toBe(401);
    expect((await tokenAt('/district-b/2024', 'both-years')).status).toBe(401);
    const tenantB = await token('/district-b/2024', 'tenant-b');
    expect((await data('/district-b/2024', tenantB, 'GET', list)).status).toBe(200);
    expect((await data('/district-a/2024', tenantB, 'GET', list)).status).toBe(401);
  });
});
