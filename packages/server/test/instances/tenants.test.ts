// Multi-tenancy without a context route (contract §9.3, §1.2): `/{tenant}/…` is the tenant's one instance, its
// discovery names the tenant, and the root's shows the `{tenantIdentifier}` placeholder; tenants share nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listener } from '../../src/cli/http-listener.js';
import { openInstances, type OpenedInstances } from '../../src/instances/index.js';
import { parseInstancesConfig } from '../../src/instances/instances-file.js';
import { createClient } from '../../src/security/index.js';
import { openStoreCreatingFolder } from '../../src/setup/store-location.js';

const SECRET = 'a-secret-of-the-tenants-test-with-32-chars';

describe('tenants without a context route', () => {
  let folder: string;
  let opened: OpenedInstances;
  let listener: Listener;
  let base: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'edfi-tenants-'));
    const config = parseInstancesConfig({
      instances: ['North', 'south'].map((tenant) => ({
        name: tenant,
        tenant,
        store: `sqlite:${folder}/${tenant}.sqlite`,
      })),
    });
    const north = await openStoreCreatingFolder(config.instances[0]!.store);
    await createClient(north, { key: 'north-client', secret: SECRET });
    await north.close();
    opened = await openInstances(config, { seed: 'none' }, { basePath: '/v7.3/api', logger: console });
    listener = await listen(opened.handler, { port: 0 });
    base = `http://localhost:${listener.port}/v7.3/api`;
  }, 60_000);

  afterAll(async () => {
    await listener?.close(500);
    await opened?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const urlsAt = async (url: string) => ((await (await fetch(url)).json()) as { urls: Record<string, string> }).urls;
  const tokenStatus = async (tenant: string) =>
    (
      await fetch(`${base}/${tenant}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'north-client',
          client_secret: SECRET,
        }),
      })
    ).status;

  it('shows the tenant in discovery, and the placeholder at the root', async () => {
    expect((await urlsAt(`${base}/`)).oauth).toBe(`${base}/{tenantIdentifier}/oauth/token`);
    expect((await urlsAt(`${base}/North/`)).dataManagementApi).toBe(`${base}/North/data/v3/`);
    // Tenant identifiers match ignoring case; URLs name the tenant as configured.
    expect((await urlsAt(`${base}/north`)).oauth).toBe(`${base}/North/oauth/token`);
  });

  it("issues tokens only to the tenant's own clients, and answers an unknown tenant with 404", async () => {
    expect(await tokenStatus('North')).toBe(200);
    expect(await tokenStatus('south')).toBe(401);
    const unknown = await fetch(`${base}/west/oauth/token`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ type: 'urn:ed-fi:api:not-found' });
  });
});
