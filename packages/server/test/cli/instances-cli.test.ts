// `serve --instances <file>` and `clients … --instances <file> --instance <name>` through the command line: a YAML file
// with a school-year context route over two SQLite instances, a client bound to both, then unbound from one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from './support.js';

const SLOW = { timeout: 60_000 };
const KEY = 'district-sis';
const SECRET = 'the-secret-of-the-instances-cli-test-32+';

describe('serve --instances', () => {
  let folder: string;
  let file: string;

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'edfi-instances-cli-'));
    file = path.join(folder, 'instances.yaml');
    writeFileSync(
      file,
      [
        "contextRoute: '{schoolYear:range(2000,2099)}'",
        'instances:',
        `  - { name: y2024, context: { schoolYear: 2024 }, store: 'sqlite:${folder}/2024.sqlite' }`,
        `  - { name: y2025, context: { schoolYear: 2025 }, store: 'sqlite:${folder}/2025.sqlite' }`,
        '',
      ].join('\n'),
    );
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('serves the instances of the file to the clients bound to them', SLOW, async () => {
    const created = await runCli([
      ...['clients', 'create', '--instances', file, '--instance', 'y2024', '--instance', 'y2025'],
      ...['--key', KEY, '--secret', SECRET, '--claim-set', 'Ed-Fi Sandbox', '--namespace', 'uri://ed-fi.org'],
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Instances:                y2024, y2025');
    const server = await startServe(['--port', '0', '--instances', file, '--token-cache-ttl', '0']);
    try {
      const base = `http://localhost:${server.port}/v7.3/api`;
      const discovery = (await (await fetch(`${base}/`)).json()) as { urls: Record<string, string> };
      expect(discovery.urls.dataManagementApi).toBe(`${base}/{schoolYear}/data/v3/`);
      const tokenResponse = await fetch(`${base}/2024/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: KEY, client_secret: SECRET }),
      });
      expect(tokenResponse.status).toBe(200);
      const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
      const list = (year: string) =>
        fetch(`${base}/${year}/data/v3/ed-fi/gradeLevelDescriptors?limit=1`, {
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await list('2024')).status).toBe(200);
      expect((await list('2025')).status).toBe(200);
      expect((await list('2026')).status).toBe(404);

      const revoked = await runCli(['clients', 'revoke', '--key', KEY, '--instances', file, '--instance', 'y2025']);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect((await list('2024')).status).toBe(200);
      expect((await list('2025')).status).toBe(404);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('serves each instance the extensions its store records', SLOW, async () => {
    const added = await runCli(['extensions', 'add', 'sample', '--store', `sqlite:${folder}/2024.sqlite`]);
    expect(added.code, added.stderr).toBe(0);
    const server = await startServe(['--port', '0', '--instances', file]);
    try {
      const base = `http://localhost:${server.port}/v7.3/api`;
      const status = async (url: string) => (await fetch(url)).status;
      expect(await status(`${base}/2024/metadata/data/v3/sample/swagger.json`)).toBe(200);
      expect(await status(`${base}/2025/metadata/data/v3/sample/swagger.json`)).toBe(404);
      const dataModels = async (year: string) =>
        ((await (await fetch(`${base}/${year}/`)).json()) as { dataModels: { name: string }[] }).dataModels.map(
          (model) => model.name,
        );
      expect(await dataModels('2024')).toContain('Sample');
      expect(await dataModels('2025')).not.toContain('Sample');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses a file whose instances do not fit its context route, naming the file', SLOW, async () => {
    const bad = path.join(folder, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        contextRoute: '{schoolYear:range(2000,2099)}',
        instances: [{ name: 'old', context: { schoolYear: 1999 }, store: 'sqlite::memory:' }],
      }),
    );
    const result = await runCli(['serve', '--port', '0', '--instances', bad]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${bad}: Instance 'old''s context value 'schoolYear' (1999) does not fit`);
  });

  it('asks for --instance when --instances names the stores', SLOW, async () => {
    const result = await runCli(['clients', 'list', '--instances', file]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Name one or more instances of --instances with --instance.');
  });
});
