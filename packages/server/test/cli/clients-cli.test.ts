// `edfi-api clients create | list | revoke`, and `serve` with the admin API switched on by environment variables.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEdFiApp } from '../../src/http/app.js';
import type { ClientSummary } from '../../src/security/index.js';
import { openStore } from '../../src/store/index.js';
import { runCli, startServe } from './support.js';

const BASE = '/v7.3/api';
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-clients-'));
const spec = `sqlite:${path.join(folder, 'clients', 'edfi-api.sqlite')}`;
const SECRET = 'a-vendor-secret-that-is-long-enough-000';
const silent = { info() {}, warn() {}, error() {} };

function printed(text: string, label: string): string | undefined {
  return new RegExp(`${label}:\\s+(\\S+)`).exec(text)?.[1];
}

/** Issues a token for the client through an app on the store file, then closes the store again. */
async function tokenStatus(key: string, secret: string): Promise<number> {
  const store = await openStore(spec);
  try {
    const app = await createEdFiApp({ store, logger: silent });
    const response = await app.inject({
      method: 'POST',
      url: `${BASE}/oauth/token`,
      headers: { 'content-type': 'application/json' },
      body: { grant_type: 'client_credentials', client_id: key, client_secret: secret },
    });
    return response.status;
  } finally {
    await store.close();
  }
}

async function listed(): Promise<ClientSummary[]> {
  const result = await runCli(['clients', 'list', '--json', '--store', spec]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ClientSummary[];
}

describe('edfi-api clients', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    const result = await runCli([
      'clients',
      'create',
      '--key',
      'sisKey',
      '--secret',
      SECRET,
      '--name',
      'Grand Bend SIS',
      '--claim-set',
      'SIS Vendor',
      '--edorg',
      '255901',
      '--edorg',
      '255901001',
      '--namespace',
      'uri://ed-fi.org',
      '--namespace',
      'uri://gbisd.edu',
      '--vendor',
      'Grand Bend',
      '--application',
      'SIS',
      '--store',
      spec,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Created client 'Grand Bend SIS' of application 'SIS' (vendor 'Grand Bend').");
    expect(result.stdout).toMatch(/Claim set:\s+SIS Vendor/);
    expect(result.stdout).toMatch(/Education organizations:\s+255901,255901001/);
    expect(result.stdout).not.toContain(SECRET);
  });

  it('generates a key and a secret when none are given, and prints the secret once', async () => {
    const result = await runCli(['clients', 'create', '--claim-set', 'roster vendor', '--store', spec]);
    expect(result.code).toBe(0);
    const key = printed(result.stdout, 'Key');
    const secret = printed(result.stdout, 'Secret');
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(result.stdout).toMatch(/Claim set:\s+Roster Vendor/);
    expect(await tokenStatus(key!, secret!)).toBe(200);
  });

  it('refuses an unknown claim set with a non-zero exit, listing the valid names', async () => {
    const result = await runCli(['clients', 'create', '--key', 'k', '--claim-set', 'Superuser', '--store', spec]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^edfi-api: Unknown claim set 'Superuser'\. Valid claim sets: AB Connect, .*SIS Vendor/,
    );
    expect((await listed()).map((client) => client.key)).not.toContain('k');
  });

  it('refuses an education organization id that is not a number', async () => {
    const result = await runCli(['clients', 'create', '--claim-set', 'SIS Vendor', '--edorg', 'abc', '--store', spec]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Expected an education organization id');
  });

  it('lists clients without secrets, as a table or as JSON, with their ownership and live token counts', async () => {
    expect(await tokenStatus('sisKey', SECRET)).toBe(200);
    const owned = [
      '--ownership-token',
      'District',
      '--access-ownership-token',
      'State',
      '--access-ownership-token',
      'Audit',
    ];
    expect(
      (await runCli(['clients', 'create', '--key', 'ownedKey', '--claim-set', 'SIS Vendor', ...owned, '--store', spec]))
        .code,
    ).toBe(0);
    const table = await runCli(['clients', 'list', '--store', spec]);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trim().split('\n');
    expect(header).toMatch(
      /^KEY\s+NAME\s+VENDOR\s+APPLICATION\s+CLAIM SET\s+EDORGS\s+NAMESPACES\s+PROFILES\s+OWNERSHIP TOKEN\s+OTHER OWNERSHIP TOKENS\s+ACTIVE\s+TOKENS$/,
    );
    expect(rows.find((row) => row.startsWith('sisKey'))).toMatch(
      /^sisKey\s+Grand Bend SIS\s+Grand Bend\s+SIS\s+SIS Vendor\s+255901,255901001\s+uri:\/\/ed-fi\.org,uri:\/\/gbisd\.edu\s+-\s+application \d+\s+-\s+yes\s+1$/,
    );
    expect(rows.find((row) => row.startsWith('ownedKey'))).toMatch(/\s+District\s+Audit,State\s+yes\s+0$/);
    expect((await listed()).find((client) => client.key === 'ownedKey')).toMatchObject({
      ownershipToken: 'District',
      accessOwnershipTokens: ['Audit', 'State'],
    });
    expect(table.stdout).not.toContain(SECRET);
    const sis = (await listed()).find((client) => client.key === 'sisKey');
    expect(sis).toMatchObject({
      vendor: 'Grand Bend',
      application: 'SIS',
      claimSet: 'SIS Vendor',
      active: true,
      liveTokens: 1,
    });
  });

  it('revokes a client: deactivated, tokens deleted, no new tokens; an unknown key fails', async () => {
    await tokenStatus('sisKey', SECRET);
    const result = await runCli(['clients', 'revoke', '--key', 'sisKey', '--store', spec]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Revoked client 'sisKey': deactivated, \d+ access token\(s\) deleted\./);
    expect((await listed()).find((client) => client.key === 'sisKey')).toMatchObject({ active: false, liveTokens: 0 });
    expect(await tokenStatus('sisKey', SECRET)).toBe(401);
    const unknown = await runCli(['clients', 'revoke', '--key', 'nobody', '--store', spec]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No client has the key 'nobody'.");
  });
});

describe('edfi-api serve with the admin API', { timeout: 60_000 }, () => {
  const adminSpec = `sqlite:${path.join(folder, 'admin', 'edfi-api.sqlite')}`;
  const admin = { EDFI_ADMIN_KEY: 'admin', EDFI_ADMIN_SECRET: 'an-admin-secret-that-is-long-enough' };

  it('serves {base}/admin/clients for the configured Basic credential only', async () => {
    const server = await startServe(['--port', '0', '--store', adminSpec, '--seed', 'none'], admin);
    try {
      expect(server.listening).toMatchObject({ adminApi: true });
      const url = `http://localhost:${server.port}${BASE}/admin/clients`;
      const authorization = `Basic ${Buffer.from(`${admin.EDFI_ADMIN_KEY}:${admin.EDFI_ADMIN_SECRET}`).toString('base64')}`;
      expect((await fetch(url)).status).toBe(401);
      const created = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'viaHttp', claimSet: 'Assessment Vendor' }),
      });
      expect(created.status).toBe(201);
      const clients = (await (await fetch(url, { headers: { authorization } })).json()) as ClientSummary[];
      expect(clients.map((client) => [client.key, client.claimSet])).toContainEqual(['viaHttp', 'Assessment Vendor']);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses to start with only half of the admin credential', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', adminSpec, '--admin-key', 'admin']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The admin API needs both --admin-key and --admin-secret');
  });
});
