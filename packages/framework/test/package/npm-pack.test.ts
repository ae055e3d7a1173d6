// The framework as someone else gets it from npm: the packed tarball installed into a separate project, whose
// TypeScript app type-checks against the shipped declarations (typed params and identity) and serves a request.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(join(PACKAGE_DIR, 'package.json'));
const TSC = require.resolve('typescript/bin/tsc');

const APP = `import { createServer, json, routes, type Authenticated } from '@edfi-api/framework';

interface Member {
  readonly name: string;
}

const options = {
  clientRepository: {
    validateApiKey: (key: string): Authenticated<Member> | false =>
      key === 'member-key' ? { identity: { name: 'Ann' }, clientId: 'ann' } : false,
  },
  defaultAuth: ['apiKey'],
  logger: { info() {}, warn() {}, error() {} },
} as const;

const route = routes<typeof options>();
const server = await createServer(options);
server.addRoutes(1, [
  route.get('/greetings/{int:times}', (ctx) => {
    const times: number = ctx.params.times;
    const name: string = ctx.identity.name;
    return json({ greeting: \`Hello \${name}\`, times: times + 1 }, { status: 201 });
  }),
]);
const { port } = await server.listen(0, '127.0.0.1');
const answers = [];
for (const key of ['member-key', 'stranger-key']) {
  const response = await fetch(\`http://127.0.0.1:\${port}/api/v1/greetings/2\`, { headers: { 'x-api-key': key } });
  answers.push({ status: response.status, body: await response.json() });
}
await server.close();
console.log(JSON.stringify(answers));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    outDir: 'dist',
    rootDir: 'src',
    types: ['node'],
    typeRoots: [dirname(dirname(require.resolve('@types/node/package.json')))],
  },
  include: ['src'],
};

let workspace: string;
let tarball: string;
let files: string[];

beforeAll(() => {
  if (!existsSync(join(PACKAGE_DIR, 'dist', 'index.d.ts'))) {
    throw new Error('Build the framework first (npm run build -w packages/framework): the package ships dist/.');
  }
  workspace = mkdtempSync(join(tmpdir(), 'framework-pack-'));
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', workspace], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [packed] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
  tarball = join(workspace, packed!.filename);
  files = packed!.files.map((file) => file.path);
}, 60_000);

afterAll(() => {
  if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
});

describe('the packed framework', () => {
  it('ships the built code, its declarations and the README, and no sources or tests', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
    expect(files.filter((path) => !path.startsWith('dist/') && !['package.json', 'README.md'].includes(path))).toEqual(
      [],
    );
  });

  it('installs into another project, type-checks its app and serves a request', () => {
    const app = join(workspace, 'app');
    const scope = join(app, 'node_modules', '@edfi-api');
    mkdirSync(scope, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', scope]);
    renameSync(join(scope, 'package'), join(scope, 'framework'));
    // The one runtime dependency, from this repository's install (the test must not need the registry).
    symlinkSync(dirname(require.resolve('fast-jwt/package.json')), join(app, 'node_modules', 'fast-jwt'), 'dir');
    mkdirSync(join(app, 'src'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-test-app', private: true, type: 'module' }));
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(app, 'src', 'main.ts'), APP);

    execFileSync(process.execPath, [TSC, '-p', app], { encoding: 'utf8' });
    const printed = execFileSync(process.execPath, [join(app, 'dist', 'main.js')], { cwd: app, encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual([
      { status: 201, body: { greeting: 'Hello Ann', times: 3 } },
      { status: 401, body: { error: { code: 'unauthorized', message: 'Not authed.' } } },
    ]);
  }, 60_000);
});
