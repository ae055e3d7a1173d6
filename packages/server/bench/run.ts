// `npm run bench -w packages/server`: the store ceiling and the HTTP scenarios (1 and 2 worker processes) in one run,
// written to bench/RESULTS.md.

import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runHttpScenarios, type HttpScenarioResult } from './http.js';
import { builtCliAvailable, canPin, pinProcess } from './server-process.js';
import { formatCeilingTable, runStoreCeilingBenchmark, type CeilingRow } from './store-ceiling.js';

const resultsFile = new URL('./RESULTS.md', import.meta.url);
const sectionTitle = '## Store ceiling and HTTP';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    workers: { type: 'string', default: '1,2' },
    quick: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: true },
  },
});

/**
 * With one server process on a 2-core machine, the server runs on CPU 0 and this process (autocannon) on CPU 1, so
 * neither takes the other's core; several workers share every CPU with the load generator.
 */
interface Placement {
  readonly serverCpus?: string;
  readonly loadGeneratorCpus?: string;
  readonly description: string;
}

const allCpus = `0-${cpus().length - 1}`;
const pinning = values.pin && cpus().length >= 2 && canPin();

function placementFor(workers: number): Placement {
  if (pinning && workers === 1)
    return { serverCpus: '0', loadGeneratorCpus: '1', description: 'server on CPU 0, load generator on CPU 1' };
  return { loadGeneratorCpus: pinning ? allCpus : undefined, description: 'server and load generator on every CPU' };
}

function httpTable(
  workers: number,
  placement: Placement,
  rows: readonly HttpScenarioResult[],
  ceiling: readonly CeilingRow[],
): string {
  const ceilingOf = (scenario: string): CeilingRow | undefined =>
    scenario.startsWith('POST students')
      ? ceiling[0]
      : scenario.startsWith('POST studentSchool')
        ? ceiling[1]
        : scenario.startsWith('GET student by id')
          ? ceiling[2]
          : undefined;
  return [
    `### ${workers} worker process${workers === 1 ? '' : 'es'} (${placement.description})`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | server CPU µs/req | load generator CPU (cores) | failures | raw SQLite ceiling ops/s | req/s ÷ ceiling |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => {
      const limit = ceilingOf(row.scenario);
      return (
        `| ${row.scenario} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.cpuMicrosPerRequest} | ` +
        `${row.loadGeneratorCores.toFixed(2)} | ` +
        `${row.failures} | ${limit ? limit.rawPerSecond.toFixed(0) : '–'} | ` +
        `${limit ? (row.requestsPerSecond / limit.rawPerSecond).toFixed(2) : '–'} |`
      );
    }),
  ].join('\n');
}

/** Replaces this benchmark's section (up to the next `## ` heading), keeping the sections of other benchmarks. */
function writeSection(section: string): void {
  const previous = readFileSync(resultsFile, 'utf8');
  const start = previous.indexOf(sectionTitle);
  if (start === -1) {
    writeFileSync(resultsFile, `${previous.trimEnd()}\n\n${section}\n`);
    return;
  }
  const next = previous.indexOf('\n## ', start + sectionTitle.length);
  const after = next === -1 ? '' : `\n\n${previous.slice(next + 1).trimEnd()}`;
  writeFileSync(resultsFile, `${previous.slice(0, start).trimEnd()}\n\n${section.trimEnd()}${after}\n`);
}

if (!builtCliAvailable()) {
  console.error('Build first: npm run build (the HTTP scenarios run the built server).');
  process.exit(1);
}

const durationSeconds = values.quick ? 3 : Number(values.duration);
const connections = Number(values.connections);
const ceiling = await runStoreCeilingBenchmark(values.quick ? { count: 1_000, rounds: 2 } : {});
console.log(formatCeilingTable(ceiling));
const tables: string[] = [];
for (const workers of values.workers.split(',').map(Number)) {
  const placement = placementFor(workers);
  if (placement.loadGeneratorCpus !== undefined) pinProcess(process.pid, placement.loadGeneratorCpus);
  const rows = await runHttpScenarios({
    workers,
    durationSeconds,
    connections,
    port: 18_080 + workers,
    ...(placement.serverCpus === undefined ? {} : { serverCpus: placement.serverCpus }),
  });
  const table = httpTable(workers, placement, rows, ceiling);
  console.log(`\n${table}`);
  tables.push(table);
}

const command = `npm run bench -w packages/server --${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
writeSection(
  [
    sectionTitle,
    '',
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}, Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}.`,
    `Command: \`${command}\`. autocannon with ${connections} connections, pipelining 1, ${durationSeconds} s per scenario,`,
    `load generator (this process) and server on the same machine${pinning ? ', placed with taskset as each table says' : ', not pinned'}.`,
    'Server CPU is user + system time of the server process and its workers over the measured run, divided by the',
    'requests served; the load generator column is its CPU over the run in cores (1.00 = a whole core: saturated).',
    '',
    '### Store ceiling (in process, commit per write, WAL, synchronous=NORMAL)',
    '',
    formatCeilingTable(ceiling),
    '',
    ...tables.flatMap((table) => [table, '']),
  ].join('\n'),
);
