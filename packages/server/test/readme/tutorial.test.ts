// Runs the README's five-minute tutorial: its sh blocks, as written, in bash, in a new folder, with only the port
// changed to a free one and `npx edfi-api` running the command line from source (tsx, no build needed). The block
// that starts the server runs in the background; the blocks after it run in one shell session, as a user types them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const README = path.resolve(PACKAGE_DIR, '..', '..', 'README.md');
const TUTORIAL_PORT = '8080';
const BLOCK_MARK = '::tutorial-block';

/** The sh blocks of the README's tutorial section, in order. */
function tutorialBlocks(): string[] {
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf('## Five-minute tutorial');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** Makes `npx edfi-api …` run the command line from this checkout's source. */
const SHELL_PRELUDE = `set -euo pipefail
npx() { if [ "$1" = edfi-api ]; then shift; node --import "$TSX_LOADER" "$EDFI_CLI" "$@"; else command npx "$@"; fi; }
`;

describe('the README tutorial', () => {
  const blocks = tutorialBlocks();
  const serveIndex = blocks.findIndex((block) => block.includes('edfi-api serve'));
  const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-tutorial-'));
  let port: string;
  let server: ChildProcess | undefined;
  let serverOutput = '';
  const shellEnv = (): NodeJS.ProcessEnv => ({
    ...process.env,
    TSX_LOADER: import.meta.resolve('tsx'),
    TSX_TSCONFIG_PATH: path.join(PACKAGE_DIR, 'tsconfig.json'),
    EDFI_CLI: path.join(PACKAGE_DIR, 'src', 'cli', 'main.ts'),
  });
  const asWritten = (block: string): string => block.replaceAll(TUTORIAL_PORT, port);

  beforeAll(async () => {
    port = String(await freePort());
  });
  afterAll(() => {
    if (server?.pid !== undefined) process.kill(-server.pid, 'SIGTERM');
  });

  it('has the blocks it is made of: set-up, serve, then requests', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(serveIndex).toBeGreaterThan(0);
    expect(blocks.join('')).toContain(TUTORIAL_PORT);
  });

  it('runs the set-up blocks', () => {
    for (const block of blocks.slice(0, serveIndex)) {
      const result = spawnSync('bash', ['-c', SHELL_PRELUDE + asWritten(block)], {
        cwd: folder,
        env: shellEnv(),
        encoding: 'utf8',
      });
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.status, result.stdout + result.stderr).toBe(0);
    }
  }, 60_000);

  it('starts the server with the serve block', async () => {
    server = spawn('bash', ['-c', SHELL_PRELUDE + asWritten(blocks[serveIndex]!)], {
      cwd: folder,
      env: shellEnv(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${serverOutput}`)), 30_000);
      const watch = (chunk: Buffer): void => {
        serverOutput += chunk.toString();
        if (serverOutput.includes('"msg":"listening"')) {
          clearTimeout(timer);
          resolve();
        }
      };
      server!.stdout!.on('data', watch);
      server!.stderr!.on('data', watch);
      server!.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${serverOutput}`)));
    });
    await started;
    expect(serverOutput).toContain(
      `API documentation (try requests in the browser): http://localhost:${port}/v7.3/api/docs`,
    );
  }, 60_000);

  it('runs the request blocks in one session: token, POSTs, query and change feed', () => {
    const session = blocks
      .slice(serveIndex + 1)
      .map((block, index) => `echo '${BLOCK_MARK} ${index}'\n${asWritten(block)}`)
      .join('\n');
    const result = spawnSync('bash', ['-c', SHELL_PRELUDE + session], {
      cwd: folder,
      env: shellEnv(),
      encoding: 'utf8',
    });
    expect(result.status, result.stdout + result.stderr + serverOutput).toBe(0);
    const outputs = result.stdout.split(new RegExp(`${BLOCK_MARK} \\d+\\n`)).slice(1);
    const [token, posts, query, feed] = outputs;
    expect(token).toBe('');
    expect(posts).toBe('201\n201\n201\n');
    expect(JSON.parse(query!)).toEqual([
      expect.objectContaining({ studentUniqueId: 'T-1', firstName: 'Ada', lastSurname: 'Lovelace' }),
    ]);
    const [versions, changes] = feed!.trim().split('\n');
    expect(JSON.parse(versions!)).toEqual({ oldestChangeVersion: 0, newestChangeVersion: expect.any(Number) });
    expect(JSON.parse(changes!)).toEqual([expect.objectContaining({ studentUniqueId: 'T-1' })]);
  }, 60_000);
});
