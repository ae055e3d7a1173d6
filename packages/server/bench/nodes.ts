// `npm run bench:nodes -w packages/server`: several API nodes on one PostgreSQL database, and what instance routing
// costs. In interleaved rounds (a new schema per variant):
//   - POST students and GET student by id against one node, and against two nodes (separate `serve` processes on
//     separate ports, each `--workers 1`, the load split evenly between them), with req/s and CPU per request of the
//     nodes and of PostgreSQL;
//   - GET student by id on the single-store server (`--store`) and on the same store served as an instance
//     (`--instances`: a tenant and a school-year context route): the nodes' CPU µs per request.
//
//   --store postgres://user@host:port/db (default postgres://postgres@127.0.0.1:5432/test; a new schema per variant)
//   --rounds N (3)  --duration s (5)  --connections n (16, split over the nodes)  --quick (1 round of 2 s, not written)
import autocannon from 'autocannon';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instanceRouter } from '../src/instances/instance-router.js';
import { unboundTokenCheck } from '../src/instances/instance-binding.js';
import { parseInstancesConfig } from '../src/instances/instances-file.js';
import { SYSTEM_CALLER } from '../src/api/index.js';
import type { AccessTokenVerifier } from '../src/security/index.js';
import { writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseBenchStore, withFreshStore } from './bench-stores.js';
import { builtCliAvailable, describeCheckout, thisCheckout } from './checkouts.js';
import { school, student, studentSchoolAssociation } from './documents.js';
import { call, createBenchClient, studentIds, tokenFor } from './http.js';
import { postgresCpu, type DatabaseCpu } from './postgres-cpu.js';
import { writeSection } from './results-file.js';
import { runCli, startServer, type ServerProcess } from './server-process.js';
import { formatRatio, formatSpread } from './statistics.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    quick: { type: 'boolean', default: false },
  },
});

const store = parseBenchStore(values.store);
if (store.kind !== 'postgres') throw new Error('The nodes benchmark needs a PostgreSQL --store.');
if (!builtCliAvailable()) {
  console.error('Build first: npm run build (the benchmark runs the built server).');
  process.exit(1);
}
const rounds = values.quick ? 1 : Number(values.rounds);
const durationSeconds = values.quick ? 2 : Number(values.duration);
const connections = Number(values.connections);
const FIRST_PORT = 18_600;
const INSTANCE_PATH = '/district-a/2024';

/** One measured run: requests served, and the CPU seconds the nodes and PostgreSQL spent on them. */
interface Run {
  readonly requestsPerSecond: number;
  readonly nodeMicrosPerRequest: number;
  readonly databaseMicrosPerRequest?: number;
  readonly failures: number;
}

type Next = () => { method: 'GET' | 'POST'; path: string; body?: string };

/** Drives every node at once for the duration, `connections` split evenly over them. */
async function drive(nodes: readonly ServerProcess[], base: string, token: string, next: Next, db?: DatabaseCpu) {
  const nodeCpu = () => nodes.reduce((sum, node) => sum + node.cpuSeconds(), 0);
  const [nodesBefore, databaseBefore] = [nodeCpu(), db?.()];
  const results = await Promise.all(
    nodes.map((node) =>
      autocannon({
        url: node.url,
        connections: Math.max(1, Math.round(connections / nodes.length)),
        duration: durationSeconds,
        requests: [
          {
            setupRequest: (request) => {
              const { method, path, body } = next();
              const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
              return { ...request, method, path: `/v7.3/api${base}${path}`, headers, body };
            },
          },
        ],
      }),
    ),
  );
  const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
  const perRequest = (seconds: number) => Math.round((seconds * 1e6) / Math.max(1, requests));
  return {
    requestsPerSecond: Math.round(requests / durationSeconds),
    nodeMicrosPerRequest: perRequest(nodeCpu() - nodesBefore),
    ...(databaseBefore === undefined ? {} : { databaseMicrosPerRequest: perRequest(db!() - databaseBefore) }),
    failures: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
  } satisfies Run;
}

async function startNodes(count: number, spec: string, serveOptions: readonly string[] = []) {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      startServer({
        cli: thisCheckout,
        store: spec,
        port: FIRST_PORT + index,
        workers: 1,
        serveOptions,
        readyPath: serveOptions.length === 0 ? '/' : `${INSTANCE_PATH}/`,
      }),
    ),
  );
}

/** Enrols students 0 … count-1 in the school (16 at a time), so the client's reads of them are authorized. */
async function enrol(root: Pick<ServerProcess, 'url'>, token: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const body = JSON.parse(studentSchoolAssociation(next++)) as unknown;
      await call(root, token, 'POST', '/data/v3/ed-fi/studentSchoolAssociations', body);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** POST students, then GET them by id, against `count` nodes on a new schema. */
async function nodesRun(count: number): Promise<{ post: Run; get: Run }> {
  return withFreshStore(store, async (spec) => {
    runCli(thisCheckout, ['migrate', '--store', spec]);
    const { key, secret } = createBenchClient(thisCheckout, spec);
    const nodes = await startNodes(count, spec);
    try {
      const token = await tokenFor(nodes[0]!, key, secret);
      await call(nodes[0]!, token, 'POST', '/data/v3/ed-fi/schools', school);
      const db = await postgresCpu(spec);
      let created = 0;
      const post = await drive(
        nodes,
        '',
        token,
        () => ({ method: 'POST', path: '/data/v3/ed-fi/students', body: student(created++) }),
        db,
      );
      await enrol(nodes[0]!, token, created);
      const ids = await studentIds(nodes[0]!, token, 20_000);
      let read = 0;
      const byId: Next = () => ({
        method: 'GET',
        path: `/data/v3/ed-fi/students/${ids[(read++ * 7919) % ids.length]}`,
      });
      return { post, get: await drive(nodes, '', token, byId, db) };
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }
  });
}

/** GET by id on one node serving the store directly, or as the one instance of an instances file. */
async function routingRun(asInstance: boolean): Promise<Run> {
  return withFreshStore(store, async (spec) => {
    runCli(thisCheckout, ['migrate', '--store', spec]);
    const { key, secret } = createBenchClient(thisCheckout, spec);
    const file = join(tmpdir(), `edfi-bench-instances-${process.pid}.json`);
    const context = { schoolYearFromRoute: 2024 };
    const instances = [{ name: 'a-2024', tenant: 'district-a', context, store: spec }];
    writeFileSync(file, JSON.stringify({ contextRoute: '{schoolYearFromRoute:range(2000,2099)}', instances }));
    const [node] = await startNodes(1, spec, asInstance ? ['--instances', file] : []);
    try {
      const base = asInstance ? INSTANCE_PATH : '';
      const root = { url: `${node!.url}${base}` };
      const token = await tokenFor(root, key, secret);
      await call(root, token, 'POST', '/data/v3/ed-fi/schools', school);
      for (let index = 0; index < 200; index++) {
        await call(root, token, 'POST', '/data/v3/ed-fi/students', JSON.parse(student(index)));
      }
      await enrol(root, token, 200);
      const ids = await studentIds(root, token, 200);
      let read = 0;
      const byId: Next = () => ({ method: 'GET', path: `/data/v3/ed-fi/students/${ids[read++ % ids.length]}` });
      return await drive([node!], base, token, byId);
    } finally {
      await node!.stop();
    }
  });
}

/**
 * The router's own cost in this process, without sockets: CPU µs per request to pick the instance of a data URL and
 * check its bearer token's binding (a token the verifier has cached), against a handler that does nothing.
 */
function routerMicrosPerRequest(): number {
  const config = parseInstancesConfig({
    contextRoute: '{schoolYearFromRoute:range(2000,2099)}',
    instances: ['2023', '2024', '2025'].map((year) => ({
      name: `a-${year}`,
      tenant: 'district-a',
      context: { schoolYearFromRoute: year },
      store: 'sqlite::memory:',
    })),
  });
  const verified = { identity: SYSTEM_CALLER, clientId: SYSTEM_CALLER.clientId };
  const verifier: AccessTokenVerifier = { verify: () => verified, forgetClient: () => {} };
  const isUnbound = unboundTokenCheck(verifier, { findAccessToken: async () => undefined });
  let served = 0;
  const handlers = new Map(config.instances.map(({ name }) => [name, { handler: () => void served++, isUnbound }]));
  const route = instanceRouter({ config, basePath: '/v7.3/api', handlers, index: () => {} });
  const request = {
    url: `/v7.3/api${INSTANCE_PATH}/data/v3/ed-fi/students/0f4f1bd2c5a54d1e9a1c0ad3b0a5f4e1`,
    headers: { authorization: 'Bearer 0123456789abcdef0123456789abcdef' },
  } as IncomingMessage;
  const response = {} as ServerResponse;
  const calls = 1_000_000;
  for (let index = 0; index < calls / 10; index++) route(request, response);
  const before = process.cpuUsage();
  for (let index = 0; index < calls; index++) route(request, response);
  const used = process.cpuUsage(before);
  if (served !== calls + calls / 10) throw new Error('the router did not reach the instance');
  return (used.user + used.system) / calls;
}

const results = { one: [] as { post: Run; get: Run }[], two: [] as { post: Run; get: Run }[] };
const routing = { store: [] as Run[], instance: [] as Run[] };
const routerCost: number[] = [];
for (let round = 0; round < rounds; round++) {
  const forward = round % 2 === 0;
  for (const count of forward ? [1, 2] : [2, 1]) {
    const run = await nodesRun(count);
    (count === 1 ? results.one : results.two).push(run);
    console.log(`round ${round + 1}, ${count} node(s): ${JSON.stringify(run)}`);
  }
  routerCost.push(routerMicrosPerRequest());
  for (const asInstance of forward ? [false, true] : [true, false]) {
    const run = await routingRun(asInstance);
    (asInstance ? routing.instance : routing.store).push(run);
    console.log(`round ${round + 1}, ${asInstance ? 'instance' : 'single store'}: ${JSON.stringify(run)}`);
  }
}

const cells = (runs: readonly Run[], pick: (run: Run) => number | undefined) =>
  formatSpread(runs.map(pick).filter((value): value is number => value !== undefined));
const nodeRows = (['post', 'get'] as const).flatMap((scenario) => {
  const label = scenario === 'post' ? 'POST students (new)' : 'GET student by id';
  const [one, two] = [results.one.map((run) => run[scenario]), results.two.map((run) => run[scenario])];
  return [
    `| ${label} | req/s | ${cells(one, (run) => run.requestsPerSecond)} | ${cells(two, (run) => run.requestsPerSecond)} | ${formatRatio(
      two.map((run) => run.requestsPerSecond),
      one.map((run) => run.requestsPerSecond),
    )} |`,
    `| ${label} | node CPU µs/req | ${cells(one, (run) => run.nodeMicrosPerRequest)} | ${cells(two, (run) => run.nodeMicrosPerRequest)} | ${formatRatio(
      two.map((run) => run.nodeMicrosPerRequest),
      one.map((run) => run.nodeMicrosPerRequest),
    )} |`,
    `| ${label} | PostgreSQL CPU µs/req | ${cells(one, (run) => run.databaseMicrosPerRequest)} | ${cells(two, (run) => run.databaseMicrosPerRequest)} | – |`,
  ];
});
const failures = [...results.one, ...results.two].reduce((sum, run) => sum + run.post.failures + run.get.failures, 0);
const routingFailures = [...routing.store, ...routing.instance].reduce((sum, run) => sum + run.failures, 0);
const body = [
  `Command: \`npm run bench:nodes -w packages/server --${process.argv
    .slice(2)
    .map((arg) => ` ${arg}`)
    .join('')}\`. ` +
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}, Node ${process.version}, PostgreSQL on the same ` +
    `machine. Date: ${new Date().toISOString().slice(0, 10)}. This checkout: ${describeCheckout(thisCheckout)}.`,
  `${rounds} interleaved rounds (each runs every variant, in reverse order every other round), a new schema per ` +
    `variant; autocannon in this process, ${connections} connections in all (split evenly over the nodes), ` +
    `${durationSeconds} s per scenario. Each cell: median (range) over the rounds; ratios are of medians.`,
  '',
  '| scenario | measure | 1 node | 2 nodes | 2 ÷ 1 |',
  '| --- | --- | ---: | ---: | ---: |',
  ...nodeRows,
  '',
  'Instance routing: GET student by id on one node (`--workers 1`), the store served directly (`--store`) or as the ' +
    `one instance of an \`--instances\` file (tenant and school-year context route, \`${INSTANCE_PATH}/data/v3/…\`).`,
  '',
  '| server | req/s | node CPU µs/req |',
  '| --- | ---: | ---: |',
  `| single store | ${cells(routing.store, (run) => run.requestsPerSecond)} | ${cells(routing.store, (run) => run.nodeMicrosPerRequest)} |`,
  `| instance | ${cells(routing.instance, (run) => run.requestsPerSecond)} | ${cells(routing.instance, (run) => run.nodeMicrosPerRequest)} |`,
  `| instance ÷ single store | ${formatRatio(
    routing.instance.map((run) => run.requestsPerSecond),
    routing.store.map((run) => run.requestsPerSecond),
  )} | ${formatRatio(
    routing.instance.map((run) => run.nodeMicrosPerRequest),
    routing.store.map((run) => run.nodeMicrosPerRequest),
  )} |`,
  '',
  `The router alone (in process, no socket; a URL of the three instances of a tenant, a cached token): ` +
    `${formatSpread(routerCost)} µs CPU per request.`,
  '',
  `Failed requests: ${failures} (nodes), ${routingFailures} (routing).`,
].join('\n');
console.log(body);
if (!values.quick)
  writeSection('## Several nodes on one PostgreSQL database, and instance routing (`bench/nodes.ts`)', body);
