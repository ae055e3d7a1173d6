import { describe, expect, it } from 'vitest';
import { ConfigurationError, createServer, discoverHandlerModules } from '../../src/index.js';

const fixtures = new URL('../fixtures/discovery/', import.meta.url);
const silent = { info() {}, warn() {}, error() {} };
const auth = {
  hashKey: 'a-test-hash-key-of-at-least-32-bytes',
  clientRepository: { validate: () => true, validateApiKey: () => true },
};

describe('discovery', () => {
  it('loads handler files from V<n> folders, recursively, in sorted order', async () => {
    const modules = await discoverHandlerModules(fixtures);
    const found = modules.map((m) => `${m.version}:${m.source.replace(/^.*discovery\//, '')}`);
    expect(found).toEqual(['1:V1/nested/deep.ts', '1:V1/twin.ts', '1:V1/users.ts', '2:V2/users.ts']);
  });

  it('skips tests, declaration files, files outside version folders and the .js twin of a .ts file', async () => {
    const ignored: string[] = [];
    await discoverHandlerModules(fixtures, { onIgnoredFile: (path) => ignored.push(path) });
    expect(ignored.map((p) => p.replace(/^.*discovery\//, ''))).toEqual(['other/outside.ts']);
  });

  it('ignores TypeScript files when no TypeScript loader is active', async () => {
    await expect(discoverHandlerModules(fixtures, { typescript: false })).rejects.toThrow(/twin\.js/);
  });

  it('serves each version only from its own folder', async () => {
    const server = await createServer({ controllerDirectory: fixtures, logger: silent, ...auth });
    expect((await server.inject({ url: '/api/v1/users/7', headers: { authorization: 'x' } })).status).toBe(401);
    expect((await server.inject({ url: '/api/v2/users/7' })).json()).toEqual({ id: 7, version: 2 });
    expect((await server.inject({ url: '/api/v2/status' })).status).toBe(404);
    expect((await server.inject({ url: '/api/v1/deep' })).json()).toEqual({ deep: true });
    expect((await server.inject({ url: '/api/v1/twin' })).json()).toEqual({ from: 'ts' });
    expect((await server.inject({ url: '/api/v3/status' })).status).toBe(404);
  });

  it('registers decorated controller methods with their auth order', async () => {
    const server = await createServer({ controllerDirectory: fixtures, logger: silent, ...auth });
    const create = server.routes().find((r) => r.method === 'POST' && r.path === '/users');
    expect(create?.auth).toEqual(['apiKey', 'basic']);
    expect(create?.source).toMatch(/users\.ts Users\.create$/);
  });

  it('fails start-up naming the file whose import throws', async () => {
    const broken = new URL('../fixtures/broken/', import.meta.url);
    const attempt = createServer({ controllerDirectory: broken, logger: silent });
    await expect(attempt).rejects.toBeInstanceOf(ConfigurationError);
    await expect(createServer({ controllerDirectory: broken, logger: silent })).rejects.toThrow(
      /broken\.ts.*boom at import/,
    );
  });

  it('fails start-up for a missing controller directory', async () => {
    await expect(createServer({ controllerDirectory: '/nonexistent/dir', logger: silent })).rejects.toThrow(
      /controller directory/,
    );
  });
});
