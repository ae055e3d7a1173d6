// `npm run soak -- --minutes N [--store spec] [--rss-bound MiB]`: a server in a child process under a mixed
// POST/GET/PUT/DELETE workload (autocannon) at 70 % of the throughput measured first, reporting throughput, p99,
// errors and the server's RSS every 10 s; fails on errors, or when the RSS floor (lowest of three windows) grows by
// more than the bound (64 MiB; 128 MiB on SQLite, whose page cache fills) from just after the warm-up to the end.
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const WINDOW_SECONDS = 10;
const WARM_UP_WINDOWS = 3;
/** Windows whose lowest RSS is a floor. */
const FLOOR_WINDOWS = 3;
const CONNECTIONS = 8;
const LOAD_SHARE = 0.7;

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    store: { type: 'string' },
    port: { type: 'string', default: '18614' },
    'rss-bound': { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const port = Number(values.port);
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-soak-'));
const store = values.store ?? `sqlite:${path.join(folder, 'soak.sqlite')}`;
/**
 * Growth of the RSS floor allowed after the warm-up: 64 MiB, plus on SQLite the page cache of the store's connection
 * (64 MiB, connection.ts), which fills up to that size as the database grows during the run.
 */
const rssBoundMiB = Number(values['rss-bound'] ?? (store.startsWith('sqlite:') ? 128 : 64));
/** Access tokens live 30 minutes: the workload takes a new one well before its token expires, as a client would. */
const TOKEN_RENEWAL_MS = 15 * 60_000;
const base = `http://127.0.0.1:${port}/v7.3/api`;
const KEY = 'soakClient';
const SECRET = 'soak-secret-long-enough-for-the-cli';
/** No relationship checks: the workload measures the server, not authorization misses (403). */
const SOAK_CLAIM_SET = 'E2E-NoFurtherAuthRequiredClaimSet';

function cli(args: readonly string[]): string {
  return execFileSync(process.execPath, [...CLI, ...args], { cwd: PACKAGE_DIR, encoding: 'utf8' });
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...CLI, 'serve', '--store', store, '--port', String(port)], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  for (let waited = 0; waited < 60_000; waited += 200) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if ((await fetch(`${base}/health`).catch(() => undefined))?.ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start within 60 s');
}

async function tokenOf(): Promise<string> {
  const response = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: KEY, client_secret: SECRET }).toString(),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The id at the end of `Location` (autocannon keeps the header names' casing). */
function idFromLocation(headers: Record<string, unknown> | undefined): string {
  const name = Object.keys(headers ?? {}).find((key) => key.toLowerCase() === 'location');
  const location = name === undefined ? '' : String(headers![name]);
  return location.slice(location.lastIndexOf('/') + 1);
}

/** What one connection remembers between the requests of a student's life. */
interface StudentContext {
  uid?: string;
  id?: string;
}

/** One student's life per connection, over and over: create, read, list, update, delete. */
function lifecycle(token: string): autocannon.Request[] {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const studentOf = (context: StudentContext, firstName: string) =>
    JSON.stringify({ studentUniqueId: context.uid, firstName, lastSurname: 'Soak', birthDate: '2010-01-01' });
  const itemPath = (context: StudentContext) => `/v7.3/api/data/v3/ed-fi/students/${String(context.id)}`;
  return [
    {
      method: 'POST',
      path: '/v7.3/api/data/v3/ed-fi/students',
      headers,
      setupRequest: (request, context: StudentContext) => {
        context.uid = `soak-${process.hrtime.bigint()}-${Math.random().toString(36).slice(2, 8)}`;
        return { ...request, body: studentOf(context, 'Ada') };
      },
      onResponse: (_status, _body, context: StudentContext, responseHeaders) => {
        context.id = idFromLocation(responseHeaders);
      },
    },
    {
      method: 'GET',
      headers,
      setupRequest: (request, context: StudentContext) => ({ ...request, path: itemPath(context) }),
    },
    { method: 'GET', headers, path: '/v7.3/api/data/v3/ed-fi/students?limit=25' },
    {
      method: 'PUT',
      headers,
      setupRequest: (request, context: StudentContext) => ({
        ...request,
        path: itemPath(context),
        body: studentOf(context, 'Grace'),
      }),
    },
    {
      method: 'DELETE',
      headers,
      setupRequest: (request, context: StudentContext) => ({ ...request, path: itemPath(context) }),
    },
  ];
}

interface Window {
  readonly second: number;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly rssMiB: number;
}

async function runWindow(token: string, seconds: number, overallRate?: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: lifecycle(token),
    ...(overallRate === undefined ? {} : { overallRate }),
  });
}

const errorsOf = (result: autocannon.Result): number => result.errors + result.timeouts + result.non2xx;

cli(['clients', 'create', '--key', KEY, '--secret', SECRET, '--claim-set', SOAK_CLAIM_SET, '--store', store]);
const server = await startServer();
let failed = false;
try {
  let token = await tokenOf();
  let tokenTakenAt = Date.now();
  const maximum = await runWindow(token, WINDOW_SECONDS);
  const rate = Math.max(1, Math.round(maximum.requests.average * LOAD_SHARE));
  process.stdout.write(
    `Soak of ${store.replace(/\/\/[^@]*@/, '//')} for ${minutes} min: maximum ${Math.round(maximum.requests.average)} ` +
      `req/s measured over ${WINDOW_SECONDS} s, load ${rate} req/s (70 %), ${CONNECTIONS} connections\n\n` +
      '| time (s) | req/s | p99 (ms) | errors | RSS (MiB) |\n| ---: | ---: | ---: | ---: | ---: |\n',
  );
  const windows: Window[] = [];
  const count = Math.max(WARM_UP_WINDOWS + FLOOR_WINDOWS, Math.round((minutes * 60) / WINDOW_SECONDS));
  for (let index = 0; index < count; index++) {
    if (Date.now() - tokenTakenAt > TOKEN_RENEWAL_MS) {
      token = await tokenOf();
      tokenTakenAt = Date.now();
    }
    const result = await runWindow(token, WINDOW_SECONDS, rate);
    if (process.env.SOAK_DEBUG) process.stderr.write(`${JSON.stringify(result.statusCodeStats)}\n`);
    const window: Window = {
      second: (index + 1) * WINDOW_SECONDS,
      requestsPerSecond: Math.round(result.requests.average),
      p99Ms: result.latency.p99,
      errors: errorsOf(result),
      rssMiB: Math.round(rssMiB(server.pid!)),
    };
    windows.push(window);
    process.stdout.write(
      `| ${window.second} | ${window.requestsPerSecond} | ${window.p99Ms} | ${window.errors} | ${window.rssMiB} |\n`,
    );
  }
  // RSS follows the collector's sawtooth: compare floors (the lowest of three windows), not single windows.
  const floorOf = (some: readonly Window[]) => Math.min(...some.map((window) => window.rssMiB));
  const afterWarmUp = windows.slice(WARM_UP_WINDOWS);
  const warm = floorOf(afterWarmUp.slice(0, FLOOR_WINDOWS));
  const growth = floorOf(afterWarmUp.slice(-FLOOR_WINDOWS)) - warm;
  const errors = windows.reduce((total, window) => total + window.errors, 0);
  failed = growth > rssBoundMiB || errors > 0;
  process.stdout.write(
    `\nRSS floor after the ${WARM_UP_WINDOWS * WINDOW_SECONDS} s warm-up: ${warm} MiB; growth of the floor by the end: ` +
      `${growth} MiB (bound ${rssBoundMiB} MiB); errors: ${errors}. ${failed ? 'FAILED' : 'passed'}\n`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(folder, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
