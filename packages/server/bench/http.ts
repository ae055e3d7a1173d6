// The server over HTTP with autocannon: POST students, POST student-school associations, GET by id, GET list with a
// filter, and an 80/20 read/write mix, each with req/s, p50/p99 latency and server CPU µs per request.

import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { school, schoolId, student, studentSchoolAssociation } from './documents.js';
import type { DatabaseCpu } from './postgres-cpu.js';
import type { BuiltCli } from './checkouts.js';
import { runCli, startServer, type ServerProcess } from './server-process.js';

export interface HttpScenarioResult {
  readonly scenario: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerRequest: number;
  /** CPU of the database server per request, when it is a process of its own that can be read here. */
  readonly databaseCpuMicrosPerRequest?: number;
  /** CPU of the load generator (this process) over the run, in cores. */
  readonly loadGeneratorCores: number;
  readonly requests: number;
  readonly failures: number;
}

export interface HttpRunOptions {
  /** The checkout whose built server runs. */
  readonly cli: BuiltCli;
  /** A new, empty store for this run. */
  readonly store: string;
  readonly databaseCpu?: DatabaseCpu;
  readonly workers: number;
  readonly durationSeconds: number;
  readonly connections: number;
  readonly port: number;
  /** CPUs the server runs on (`taskset -c`); anywhere when absent. */
  readonly serverCpus?: string;
}

type RequestTemplate = { method: 'GET' | 'POST'; path: string; body?: string };

async function measure(
  server: ServerProcess,
  scenario: string,
  token: string,
  next: () => RequestTemplate,
  options: HttpRunOptions,
  amount?: number,
): Promise<HttpScenarioResult> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const cpuBefore = server.cpuSeconds();
  const databaseBefore = options.databaseCpu?.();
  const loadGeneratorBefore = process.cpuUsage();
  const result = await autocannon({
    url: server.url,
    connections: options.connections,
    pipelining: 1,
    ...(amount === undefined ? { duration: options.durationSeconds } : { amount }),
    requests: [
      {
        setupRequest: (request) => {
          const template = next();
          // Fresh headers each time: autocannon adds the content-length of a body to the headers object it is given.
          return {
            ...request,
            method: template.method,
            path: `/v7.3/api${template.path}`,
            headers: { ...headers },
            body: template.body,
          };
        },
      },
    ],
  });
  const cpuSeconds = server.cpuSeconds() - cpuBefore;
  const databaseSeconds = databaseBefore === undefined ? undefined : options.databaseCpu!() - databaseBefore;
  const loadGenerator = process.cpuUsage(loadGeneratorBefore);
  const requests = result.requests.total;
  const seconds = result.duration || options.durationSeconds;
  const perRequest = (cpu: number): number => (requests === 0 ? 0 : Math.round((cpu * 1e6) / requests));
  return {
    scenario,
    requestsPerSecond: Math.round(requests / seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosPerRequest: perRequest(cpuSeconds),
    ...(databaseSeconds === undefined ? {} : { databaseCpuMicrosPerRequest: perRequest(databaseSeconds) }),
    loadGeneratorCores: (loadGenerator.user + loadGenerator.system) / 1e6 / seconds,
    requests,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

export async function call(
  server: Pick<ServerProcess, 'url'>,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
  return response;
}

export async function tokenFor(server: Pick<ServerProcess, 'url'>, key: string, secret: string): Promise<string> {
  const response = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`,
    },
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
  if (!response.ok) throw new Error(`token request failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export async function studentIds(server: Pick<ServerProcess, 'url'>, token: string, wanted: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ids.length < wanted; offset += 500) {
    const page = (await (
      await call(server, token, 'GET', `/data/v3/ed-fi/students?limit=500&offset=${offset}`)
    ).json()) as { id: string }[];
    if (page.length === 0) break;
    ids.push(...page.map((item) => item.id));
  }
  return ids;
}

/** The benchmark's API client in the store: the school's id as its education organization, so reads are
 * relationship-based as in production. */
export function createBenchClient(cli: BuiltCli, store: string): { key: string; secret: string } {
  const key = 'benchmark';
  const secret = randomBytes(24).toString('hex');
  const claims = ['--claim-set', 'Ed-Fi Sandbox', '--edorg', String(schoolId), '--namespace', 'uri://ed-fi.org'];
  runCli(cli, [
    'clients',
    'create',
    '--key',
    key,
    '--secret',
    secret,
    '--name',
    'Benchmark',
    ...claims,
    '--store',
    store,
  ]);
  return { key, secret };
}

/** Runs every scenario against the given new store served by `workers` processes. */
export async function runHttpScenarios(options: HttpRunOptions): Promise<HttpScenarioResult[]> {
  const { cli, store } = options;
  const server = await startServer({
    cli,
    store,
    port: options.port,
    workers: options.workers,
    ...(options.serverCpus === undefined ? {} : { cpus: options.serverCpus }),
  });
  try {
    const { key, secret } = createBenchClient(cli, store);
    const token = await tokenFor(server, key, secret);
    await call(server, token, 'POST', '/data/v3/ed-fi/schools', school);

    let created = 0;
    const results: HttpScenarioResult[] = [];
    results.push(
      await measure(
        server,
        'POST students (new)',
        token,
        () => ({ method: 'POST', path: '/data/v3/ed-fi/students', body: student(created++) }),
        options,
      ),
    );
    const studentsCreated = created;
    let enrolled = 0;
    results.push(
      await measure(
        server,
        'POST studentSchoolAssociations (new, 2 references, 4 descriptors)',
        token,
        () => ({
          method: 'POST',
          path: '/data/v3/ed-fi/studentSchoolAssociations',
          body: studentSchoolAssociation(enrolled++ % studentsCreated),
        }),
        options,
        studentsCreated,
      ),
    );
    const ids = await studentIds(server, token, 20_000);
    let read = 0;
    const byId = (): RequestTemplate => ({
      method: 'GET',
      path: `/data/v3/ed-fi/students/${ids[(read++ * 7919) % ids.length]}`,
    });
    results.push(await measure(server, 'GET student by id', token, byId, options));
    let listed = 0;
    results.push(
      await measure(
        server,
        'GET list with a filter (25 per page)',
        token,
        () =>
          listed++ % 2 === 0
            ? {
                method: 'GET',
                path: `/data/v3/ed-fi/studentSchoolAssociations?schoolId=${schoolId}&limit=25&offset=${listed % 400}`,
              }
            : { method: 'GET', path: `/data/v3/ed-fi/students?lastSurname=Student${listed % 100}&limit=25` },
        options,
      ),
    );
    let mixed = 0;
    results.push(
      await measure(
        server,
        'mixed 80 % GET by id / 20 % POST',
        token,
        () =>
          mixed++ % 5 === 4 ? { method: 'POST', path: '/data/v3/ed-fi/students', body: student(created++) } : byId(),
        options,
      ),
    );
    return results;
  } finally {
    await server.stop();
  }
}
