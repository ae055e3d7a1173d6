import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdFiApp } from '../../src/http/app.js';
import { openStore } from '../../src/store/index.js';
import { runCli, startServe, type RunningServer } from './support.js';

const BASE = '/v7.3/api';
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-cli-'));
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

function storeIn(name: string): { file: string; spec: string } {
  const file = path.join(folder, name, 'edfi-api.sqlite');
  return { file, spec: `sqlite:${file}` };
}

/** Whether a file contains a string, read as raw bytes (SQLite pages and WAL frames alike). */
function fileContains(file: string, text: string): boolean {
  return existsSync(file) && readFileSync(file).includes(Buffer.from(text));
}

function isCheckpointed(file: string): boolean {
  const wal = `${file}-wal`;
  return !existsSync(wal) || statSync(wal).size === 0;
}

async function requestToken(port: number, key: string, secret: string): Promise<{ status: number; token?: string }> {
  const response = await fetch(`http://localhost:${port}${BASE}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await response.json()) as { access_token?: string };
  return { status: response.status, token: body.access_token };
}

function printed(text: string, label: string): string | undefined {
  return new RegExp(`${label}:\\s+(\\S+)`).exec(text)?.[1];
}

describe('edfi-api clients create', () => {
  const { file, spec } = storeIn('clients');
  const secret = 'a-secret-that-is-long-enough-for-no-warning';

  beforeAll(async () => {
    const result = await runCli([
      'clients',
      'create',
      '--key',
      'vendorKey',
      '--secret',
      secret,
      '--name',
      'Vendor',
      '--claim-set',
      'SIS Vendor',
      '--store',
      spec,
    ]);
    expect(result.stderr).not.toMatch(/edfi-api:/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('vendorKey');
    expect(result.stdout).not.toContain(secret);
  });

  it('creates a client whose credentials then get a token', async () => {
    const store = await openStore(spec);
    try {
      const app = await createEdFiApp({ store, logger: { info() {}, warn() {}, error() {} } });
      const response = await app.inject({
        method: 'POST',
        url: `${BASE}/oauth/token`,
        headers: { 'content-type': 'application/json' },
        body: { client_id: 'vendorKey', client_secret: secret, grant_type: 'client_credentials' },
      });
      expect(response.status).toBe(200);
      expect((await store.listClients()).map((client) => client.name)).toEqual(['Vendor']);
    } finally {
      await store.close();
    }
  });

  it('never writes the secret to the store file', () => {
    expect(fileContains(file, 'vendorKey')).toBe(true);
    expect(fileContains(file, secret)).toBe(false);
    expect(fileContains(`${file}-wal`, secret)).toBe(false);
  });

  it('generates and prints a secret when none is given, and refuses a duplicate key', async () => {
    const generated = await runCli(['clients', 'create', '--claim-set', 'SIS Vendor', '--store', spec]);
    expect(generated.code).toBe(0);
    expect(printed(generated.stdout, 'Secret')).toMatch(/^[A-Za-z0-9]{48}$/);
    const duplicate = await runCli([
      ...['clients', 'create', '--key', 'vendorKey', '--claim-set', 'SIS Vendor', '--store', spec],
    ]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("A client with the key 'vendorKey' already exists.");
  });

  it('refuses a secret shorter than 16 characters unless --allow-weak-secret, and warns about it then', async () => {
    const create = ['clients', 'create', '--key', 'weak', '--secret', 'short', '--claim-set', 'SIS Vendor'];
    const refused = await runCli([...create, '--store', spec]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The secret has 5 characters; at least 16 are required');
    expect((await runCli(['clients', 'list', '--json', '--store', spec])).stdout).not.toContain('"weak"');
    const allowed = await runCli([...create, '--allow-weak-secret', '--store', spec]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('Warning: The secret has 5 characters');
  }, 30_000);

  it('refuses to guess the claim set, listing them', async () => {
    const result = await runCli(['clients', 'create', '--key', 'noClaimSet', '--store', spec]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--claim-set is required\. Claim sets: AB Connect, .*Ed-Fi Sandbox, .*SIS Vendor/);
  });
});

describe('edfi-api serve', () => {
  const { file, spec } = storeIn('serve');
  let first: RunningServer | undefined;
  let firstExit: number | null;
  let sandbox: { key: string; secret: string };
  let accessToken: string | undefined;

  beforeAll(async () => {
    first = await startServe(['--port', '0', '--store', spec]);
  }, 60_000);

  afterAll(async () => {
    if (first !== undefined && firstExit === undefined) await first.stop();
  });

  it('prints the sandbox key, secret and base URL on first start', async () => {
    const banner = await first!.waitForStderr('Secret:');
    const key = printed(banner, 'Key');
    const secret = printed(banner, 'Secret');
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(first!.stderr()).toContain(`http://localhost:${first!.port}${BASE}`);
    sandbox = { key: key!, secret: secret! };
  });

  it('answers GET {base}/, the token endpoint and a data route over a real socket', async () => {
    const discovery = await fetch(`http://localhost:${first!.port}${BASE}/`);
    expect(discovery.status).toBe(200);
    expect(await discovery.json()).toMatchObject({ version: '7.3' });
    const issued = await requestToken(first!.port, sandbox.key, sandbox.secret);
    expect(issued.status).toBe(200);
    accessToken = issued.token;
    const authorized = await fetch(`http://localhost:${first!.port}${BASE}/data/v3/ed-fi/schoolYearTypes?limit=1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(authorized.status).toBe(200);
  });

  it('logs one JSON line per request without the query string, headers or tokens', async () => {
    await fetch(`http://localhost:${first!.port}${BASE}/health?client_secret=leak`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const request = first!.logEntries().find((entry) => entry.msg === 'request' && entry.path === `${BASE}/health`);
    expect(request).toMatchObject({ method: 'GET', status: 200 });
    expect(typeof request!.durationMs).toBe('number');
    expect(first!.stdout()).not.toContain('leak');
    expect(first!.stdout()).not.toContain(sandbox.secret);
  });

  it('exits cleanly on SIGTERM, leaving a checkpointed store file without secrets or tokens', async () => {
    firstExit = await first!.stop();
    expect(firstExit).toBe(0);
    expect(first!.logEntries().some((entry) => entry.msg === 'stopping')).toBe(true);
    expect(isCheckpointed(file)).toBe(true);
    expect(fileContains(file, sandbox.secret)).toBe(false);
    expect(fileContains(file, accessToken!)).toBe(false);
  });

  it('starts again on the existing store without a new sandbox client', async () => {
    const second = await startServe(['--store', spec], { PORT: '0' });
    try {
      expect(second.stderr()).not.toContain('Secret:');
      // Measured, not asserted: start-up time depends on the machine.
      console.info(`serve start-up on an existing store: ${String(second.listening.startupMs)} ms`);
      expect(second.listening.startupMs).toEqual(expect.any(Number));
      expect((await requestToken(second.port, sandbox.key, sandbox.secret)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 60_000);
});

describe('edfi-api serve options', () => {
  /** A port another process holds for the duration of `run`. */
  async function withTakenPort<T>(run: (port: number) => Promise<T>): Promise<T> {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    try {
      return await run((holder.address() as AddressInfo).port);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }

  for (const workers of ['1', '2']) {
    it(`keeps the sandbox credentials of a new store when the port is taken (--workers ${workers})`, async () => {
      const { spec } = storeIn(`taken-port-${workers}`);
      const failed = await withTakenPort((port) =>
        runCli(['serve', '--port', String(port), '--store', spec, '--workers', workers]),
      );
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/EADDRINUSE/);
      const key = printed(failed.stderr, 'Key');
      const secret = printed(failed.stderr, 'Secret');
      expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
      const server = await startServe(['--port', '0', '--store', spec]);
      try {
        expect(server.stderr()).not.toContain('Secret:');
        expect((await requestToken(server.port, key!, secret!)).status).toBe(200);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    }, 60_000);
  }

  it.skipIf(!hasOpenssl)(
    'serves HTTPS with --tls-cert and --tls-key, with Strict-Transport-Security',
    async () => {
      const key = path.join(folder, 'tls-key.pem');
      const cert = path.join(folder, 'tls-cert.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
        ],
        {
          stdio: 'ignore',
        },
      );
      const server = await startServe([
        '--port',
        '0',
        '--store',
        storeIn('tls').spec,
        '--seed',
        'none',
        '--tls-cert',
        cert,
        '--tls-key',
        key,
      ]);
      try {
        expect(server.listening.url).toMatch(/^https:/);
        const answer = await new Promise<{ status?: number; hsts: unknown }>((resolve, reject) => {
          httpsRequest({ port: server.port, path: `${BASE}/health`, rejectUnauthorized: false }, (response) => {
            response.resume();
            resolve({ status: response.statusCode, hsts: response.headers['strict-transport-security'] });
          })
            .on('error', reject)
            .end();
        });
        expect(answer).toEqual({ status: 200, hsts: 'max-age=31536000' });
        expect(await server.waitForStderr('school years')).toContain('(0 descriptors, 60 school years)');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    60_000,
  );

  it('runs worker processes that share the store', async () => {
    const { file, spec } = storeIn('workers');
    const server = await startServe(['--port', '0', '--store', spec, '--workers', '2']);
    try {
      expect(printed(await server.waitForStderr('Secret:'), 'Key')).toMatch(/^[A-Za-z0-9]{32}$/);
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await fetch(`http://localhost:${server.port}${BASE}/`)).status).toBe(200);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(isCheckpointed(file)).toBe(true);
  }, 60_000);

  it('answers Use-Snapshot with the ODS 404 under --snapshots off', async () => {
    const server = await startServe(['--port', '0', '--store', storeIn('no-snapshots').spec, '--snapshots', 'off']);
    try {
      const banner = await server.waitForStderr('Secret:');
      const { token } = await requestToken(server.port, printed(banner, 'Key')!, printed(banner, 'Secret')!);
      const response = await fetch(`http://localhost:${server.port}${BASE}/data/v3/ed-fi/schoolYearTypes`, {
        headers: { authorization: `Bearer ${token}`, 'use-snapshot': 'true' },
      });
      expect([response.status, await response.json()]).toEqual([
        404,
        {
          detail: 'Snapshot not found.',
          type: 'urn:ed-fi:api:not-found',
          title: 'Not Found',
          status: 404,
          correlationId: expect.any(String),
          errors: ['The snapshot connection for the ODS has not been configured.'],
        },
      ]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('refuses a bad option', async () => {
    const result = await runCli(['serve', '--workers', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--workers');
  });
});
