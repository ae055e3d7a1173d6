// `serve --host`, `--admin-port`/`--admin-host` and `--trust-proxy` (issue 14, defects 7 and 8), over real sockets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type RunningServer } from './support.js';

const BASE = '/v7.3/api';
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-network-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const ADMIN = { key: 'admin', secret: 'an-admin-secret-long-enough' };
const adminAuthorization = `Basic ${Buffer.from(`${ADMIN.key}:${ADMIN.secret}`).toString('base64')}`;

function storeSpec(name: string): string {
  return `sqlite:${path.join(folder, name, 'edfi-api.sqlite')}`;
}

async function withServer(args: readonly string[], body: (server: RunningServer) => Promise<void>): Promise<void> {
  const server = await startServe(['--port', '0', '--seed', 'none', ...args], {
    EDFI_ADMIN_KEY: ADMIN.key,
    EDFI_ADMIN_SECRET: ADMIN.secret,
  });
  try {
    await body(server);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

async function oauthUrlOf(port: number, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}${BASE}/`, { headers });
  return ((await response.json()) as { urls: { oauth: string } }).urls.oauth;
}

describe('edfi-api serve: listening addresses', () => {
  it('serves the admin API only on --admin-port, on loopback by default', async () => {
    await withServer(['--store', storeSpec('admin'), '--host', '127.0.0.1', '--admin-port', '0'], async (server) => {
      expect(server.listening).toMatchObject({ host: '127.0.0.1', adminApi: { host: '127.0.0.1' } });
      const adminPort = (server.listening.adminApi as { port: number }).port;
      expect(adminPort).not.toBe(server.port);
      const clientsOn = (port: number) =>
        fetch(`http://127.0.0.1:${port}${BASE}/admin/clients`, { headers: { authorization: adminAuthorization } });
      expect((await clientsOn(adminPort)).status).toBe(200);
      expect((await clientsOn(server.port)).status).toBe(404);
      // The data API is not served on the admin port.
      expect((await fetch(`http://127.0.0.1:${adminPort}${BASE}/`)).status).toBe(404);
    });
  }, 60_000);

  it('listens on the --host interface only', async () => {
    await withServer(['--store', storeSpec('host'), '--host', '127.0.0.1'], async (server) => {
      expect((await fetch(`http://127.0.0.1:${server.port}${BASE}/health`)).status).toBe(200);
      await expect(fetch(`http://[::1]:${server.port}${BASE}/health`)).rejects.toThrow();
    });
  }, 60_000);
});

describe('edfi-api serve --trust-proxy', () => {
  const forwarded = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  it('ignores X-Forwarded-* by default', async () => {
    await withServer(['--store', storeSpec('untrusted')], async (server) => {
      expect(await oauthUrlOf(server.port, forwarded)).toBe(`http://127.0.0.1:${server.port}${BASE}/oauth/token`);
    });
  }, 60_000);

  it('believes them from a listed proxy address', async () => {
    await withServer(['--store', storeSpec('trusted'), '--trust-proxy', '127.0.0.1'], async (server) => {
      expect(await oauthUrlOf(server.port, forwarded)).toBe(`https://evil.example${BASE}/oauth/token`);
    });
  }, 60_000);

  it('refuses a malformed value', async () => {
    const result = await runCli(['serve', '--trust-proxy', ' , ']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--trust-proxy');
  });
});
