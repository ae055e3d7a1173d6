// `serve --extensions`, `extensions list|add --store …`: the optional extensions a store serves are recorded in the
// store, so a later `serve` (any node) serves them without being told, and dropping one is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from './support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-extensions-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const specOf = (name: string) => `sqlite:${path.join(folder, name, 'edfi-api.sqlite')}`;
const SLOW = { timeout: 90_000 };

async function status(port: number, pathAfterRoot: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/v7.3/api${pathAfterRoot}`)).status;
}

describe('the extensions a store serves', SLOW, () => {
  it('lists none served on a new store, then serves the one added, also to a serve not told', async () => {
    const spec = specOf('added');
    const listed = await runCli(['extensions', 'list', '--store', spec]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('homograph\toff\nsample\toff\n');
    const added = await runCli(['extensions', 'add', 'sample', '--store', spec]);
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(/serves sample/);
    expect((await runCli(['extensions', 'list', '--store', spec])).stdout).toBe('homograph\toff\nsample\tserved\n');

    const server = await startServe(['--store', spec, '--port', '0']);
    try {
      expect(await status(server.port, '/metadata/data/v3/sample/swagger.json')).toBe(200);
      expect(await status(server.port, '/metadata/data/v3/homograph/swagger.json')).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('records what serve --extensions serves, and refuses a serve that would drop one', async () => {
    const spec = specOf('served');
    const server = await startServe(['--store', spec, '--port', '0', '--extensions', 'sample,homograph']);
    try {
      expect(await status(server.port, '/metadata/data/v3/homograph/swagger.json')).toBe(200);
    } finally {
      await server.stop();
    }
    expect((await runCli(['extensions', 'list', '--store', spec])).stdout).toBe('homograph\tserved\nsample\tserved\n');
    const dropping = await runCli(['serve', '--store', spec, '--port', '0', '--extensions', 'sample']);
    expect(dropping.code).not.toBe(0);
    expect(dropping.stderr).toMatch(/serves the extension homograph; --extensions must keep it/);
  });

  it('keeps them through migrate and doctor, which open the store with what it records', async () => {
    const spec = specOf('kept');
    expect((await runCli(['extensions', 'add', 'homograph', '--store', spec])).code).toBe(0);
    const migrated = await runCli(['migrate', '--store', spec]);
    expect(migrated.stdout).toMatch(/already current/);
    expect((await runCli(['extensions', 'list', '--store', spec])).stdout).toBe('homograph\tserved\nsample\toff\n');
    const doctor = await runCli(['doctor', '--store', spec]);
    expect(doctor.stdout).toMatch(/^ok {6}schema: current/m);
  });

  it('refuses an unknown extension name', async () => {
    const result = await runCli(['extensions', 'add', 'nosuch', '--store', specOf('unknown')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Unknown extension nosuch; this model has homograph, sample/);
  });
});
