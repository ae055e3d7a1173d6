// Every `serve` option from an EDFI_ environment variable, named in --help; flags read as on/off; the command line
// wins; the documentation page is announced at start-up and off with --no-docs (EDFI_NO_DOCS).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { runCli, startServe } from './support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-env-'));
const storeSpec = (name: string): string => `sqlite:${path.join(folder, `${name}.sqlite`)}`;

describe('serve options from the environment', () => {
  it('gives every serve option an EDFI_ variable, shown in --help', () => {
    const serve = buildProgram().commands.find((command) => command.name() === 'serve')!;
    const variables = serve.options.map((option) => [option.long, option.envVar]);
    expect(variables).toContainEqual(['--store', 'EDFI_STORE']);
    expect(variables).toContainEqual(['--tls-cert', 'EDFI_TLS_CERT']);
    expect(variables).toContainEqual(['--no-docs', 'EDFI_NO_DOCS']);
    expect(variables.filter(([, variable]) => !/^EDFI_[A-Z_]+$/.test(variable ?? ''))).toEqual([]);
    let help = '';
    serve.configureOutput({ writeOut: (text) => (help += text) }).outputHelp();
    expect(help.replace(/\s+/g, ' ')).toContain(
      '--store <spec> where the data lives (default: "sqlite:./data/edfi-api.sqlite", env: EDFI_STORE)',
    );
    expect(help).toMatch(/Every option can also be set by the environment variable shown with it/);
  });

  it('refuses a variable whose value the option does not take, naming both', async () => {
    const result = await runCli(['serve'], { EDFI_WORKERS: '0', EDFI_STORE: storeSpec('refused') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "error: EDFI_WORKERS='0' is not a valid value of --workers. Expected a whole number from 1 to 256.",
    );
  });

  it('starts from variables alone: port, store, base path, seed and no docs page', async () => {
    const server = await startServe([], {
      EDFI_PORT: '0',
      EDFI_STORE: storeSpec('from-env'),
      EDFI_BASE_PATH: '/edfi',
      EDFI_SEED: 'none',
      EDFI_NO_DOCS: '1',
    });
    try {
      expect(server.listening.url).toBe(`http://localhost:${server.port}/edfi`);
      expect(server.listening.docs).toBeUndefined();
      expect(await server.waitForStderr('school years')).toMatch(/\(0 descriptors, 60 school years\)/);
      expect(server.stderr()).not.toContain('API documentation');
      expect((await fetch(`http://localhost:${server.port}/edfi/docs`)).status).toBe(404);
      expect((await fetch(`http://localhost:${server.port}/edfi/`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('reads a flag variable set to false as off, lets the command line win, and announces the docs page', async () => {
    const server = await startServe(['--base-path', '/cli'], {
      EDFI_PORT: '0',
      EDFI_STORE: storeSpec('flags'),
      EDFI_BASE_PATH: '/ignored',
      EDFI_NO_DOCS: 'false',
    });
    try {
      const docs = `http://localhost:${server.port}/cli/docs`;
      expect(server.listening.docs).toBe(docs);
      expect(await server.waitForStderr('API documentation')).toContain(
        `API documentation (try requests in the browser): ${docs}`,
      );
      const page = await fetch(docs);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
