import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type HandlerModule } from '../../src/index.js';

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const cli = (...args: string[]) => run('npx', ['tsx', 'src/cli.ts', ...args], { cwd: packageRoot });
const workDir = await mkdtemp(join(tmpdir(), 'framework-cli-'));

afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('framework CLI', () => {
  it('prints the OpenAPI document of one version', async () => {
    const { stdout } = await cli('openapi', '--dir', 'test/fixtures/discovery', '--api-version', '2');
    const document = JSON.parse(stdout) as { openapi: string; info: { version: string }; paths: object };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('2');
    expect(Object.keys(document.paths)).toEqual(['/api/v2/users/{id}']);
  });

  it('writes a route manifest that replaces the directory scan', async () => {
    const out = join(workDir, 'routes.generated.ts');
    await cli('routes', 'build', '--dir', 'test/fixtures/discovery', '--out', out);
    expect(await readFile(out, 'utf8')).toMatch(/import \* as handlers0 from '.*V1\/nested\/deep\.ts';/);
    const manifest = (await import(out)) as { default: HandlerModule[] };
    expect(manifest.default.map((m) => m.version)).toEqual([1, 1, 1, 2]);
    const server = await createServer({
      routes: manifest.default,
      hashKey: 'k'.repeat(32),
      clientRepository: { validate: () => true, validateApiKey: () => true },
    });
    expect((await server.inject({ url: '/api/v2/users/3' })).json()).toEqual({ id: 3, version: 2 });
  });

  it('exits non-zero with the usage for an unknown command', async () => {
    await expect(cli('nonsense')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Usage') });
  });
});
