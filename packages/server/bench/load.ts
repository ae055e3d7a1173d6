// Full load of the Grand Bend sample district: over HTTP into the built server (`edfi-api serve` in a child process,
// on a real socket) and with --direct in-process; wall time, documents per second and CPU, next to published figures.
//
//   npx tsx packages/server/bench/load.ts [--parallel 8] [--workers 1] [--port 18089] [--only http|direct]
//     [--server-cpu-prof <folder>]  (the server's V8 CPU profile; profile the loader with `node --cpu-prof --import tsx`)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  createHttpTarget,
  loadFiles,
  openDirectStoreTarget,
  type LoadSummary,
  type LoadTarget,
} from '../src/load/index.js';
import { getModelRegistry } from '../src/model/index.js';
import { SAMPLE_DATA } from './direct-load.js';
import { builtCliAvailable, thisCheckout } from './checkouts.js';
import { runCli, startServer } from './server-process.js';

interface Run {
  readonly mode: string;
  readonly summary: LoadSummary;
  readonly wallSeconds: number;
  /** CPU seconds of the process that validated and stored the documents. */
  readonly serverCpuSeconds: number;
  /** CPU seconds of the loading process (the same process for --direct). */
  readonly loaderCpuSeconds: number;
}

function cpuSecondsOfThisProcess(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

async function timedLoad(mode: string, target: LoadTarget, parallel: number, serverCpu: () => number): Promise<Run> {
  const serverBefore = serverCpu();
  const loaderBefore = cpuSecondsOfThisProcess();
  const started = performance.now();
  const summary = await loadFiles({ inputs: [SAMPLE_DATA], target, parallel, progress: 'none' });
  return {
    mode,
    summary,
    wallSeconds: (performance.now() - started) / 1000,
    serverCpuSeconds: serverCpu() - serverBefore,
    loaderCpuSeconds: cpuSecondsOfThisProcess() - loaderBefore,
  };
}

async function directRun(folder: string, parallel: number): Promise<Run> {
  const { target } = await openDirectStoreTarget(`sqlite:${path.join(folder, 'direct.sqlite')}`, getModelRegistry());
  try {
    // Store set-up (schema, default descriptors) is not part of the load, as it is not for the published figures.
    return await timedLoad('direct (in-process)', target, parallel, cpuSecondsOfThisProcess);
  } finally {
    await target.close();
  }
}

async function httpRun(
  folder: string,
  parallel: number,
  workers: number,
  port: number,
  profileFolder: string | undefined,
): Promise<Run> {
  const store = `sqlite:${path.join(folder, 'http.sqlite')}`;
  const nodeOptions = profileFolder === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileFolder];
  const server = await startServer({ cli: thisCheckout, store, port, workers, nodeOptions });
  try {
    const key = 'loader';
    const secret = randomBytes(24).toString('hex');
    // Authorized like the first-start sandbox client: the sample district and the sample's namespaces. The sample set
    // has no student enrollments, so relationship-based authorization refuses its enrollment-dependent student data
    // (403), as the ODS does; those records count as failed.
    runCli(thisCheckout, [
      ...['clients', 'create', '--key', key, '--secret', secret, '--name', 'Loader', '--store', store],
      ...['--claim-set', 'Ed-Fi Sandbox', '--edorg', '255901'],
      ...['--namespace', 'uri://ed-fi.org', '--namespace', 'uri://gbisd.edu', '--namespace', 'uri://tpdm.ed-fi.org'],
    ]);
    const target = createHttpTarget({ url: server.url, key, secret, parallel });
    return await timedLoad(`HTTP (${workers} worker${workers > 1 ? 's' : ''})`, target, parallel, () =>
      server.cpuSeconds(),
    );
  } finally {
    await server.stop();
  }
}

function report(runs: readonly Run[], parallel: number): string {
  const header = [
    'mode',
    'wall s',
    'docs/s',
    'server CPU s',
    'loader CPU s',
    'server µs/doc',
    'loader µs/doc',
    'loaded',
    'failed',
  ];
  const perDocument = (run: Run, seconds: number): string =>
    Math.round((seconds * 1e6) / run.summary.documents).toString();
  const rows = runs.map((run) => [
    run.mode,
    run.wallSeconds.toFixed(1),
    Math.round(run.summary.documents / run.wallSeconds).toString(),
    run.serverCpuSeconds.toFixed(1),
    run.loaderCpuSeconds.toFixed(1),
    perDocument(run, run.serverCpuSeconds),
    perDocument(run, run.loaderCpuSeconds),
    String(run.summary.created + run.summary.updated),
    String(run.summary.failed),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]): string => cells.map((cell, column) => cell.padStart(widths[column]!)).join('  ');
  const documents = runs[0]?.summary.documents ?? 0;
  return [
    `Grand Bend sample: ${documents} documents in 49 interchange files (29 MB); ${parallel} requests in flight;`,
    `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
    line(header),
    ...rows.map(line),
    'Published, "partial Grand Bend" on 8-12 cores: ODS/API 5.3 67.7-89 s, Meadowlark 94-208 s.',
    'Goal on 2 cores: direct under 60 s, HTTP under 120 s.',
  ].join('\n');
}

const { values } = parseArgs({
  options: {
    parallel: { type: 'string', default: '8' },
    workers: { type: 'string', default: '1' },
    port: { type: 'string', default: '18089' },
    only: { type: 'string' },
    'server-cpu-prof': { type: 'string' },
  },
});
const parallel = Number(values.parallel);
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-load-bench-'));
try {
  const runs: Run[] = [];
  if (values.only !== 'http') runs.push(await directRun(folder, parallel));
  if (values.only !== 'direct') {
    if (!builtCliAvailable())
      throw new Error('The HTTP run needs the built CLI: run `npm run build -w packages/server`.');
    const port = Number(values.port);
    runs.push(await httpRun(folder, parallel, Number(values.workers), port, values['server-cpu-prof']));
  }
  console.log(report(runs, parallel));
} finally {
  rmSync(folder, { recursive: true, force: true });
}
