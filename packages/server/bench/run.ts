// `npm run bench -w packages/server`: the store ceiling and the HTTP scenarios (1 and 2 worker processes) in one run,
// written to bench/RESULTS.md.

import { cpus } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runHttpScenarios, type HttpScenarioResult } from './http.js';
import { builtCliAvailable } from './server-process.js';
import { formatCeilingTable, runStoreCeilingBenchmark, type CeilingRow } from './store-ceiling.js';

const resultsFile = new URL('./RESULTS.md', import.meta.url);
const sectionTitle = '## Store ceiling and HTTP';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    workers: { type: 'string', default: '1,2' },
    quick: { type: 'boolean', default: false },
  },
});

function httpTable(workers: number, rows: readonly HttpScenarioResult[], ceiling: readonly CeilingRow[]): string {
  const ceilingOf = (scenario: string): CeilingRow | undefined =>
    scenario.startsWith('POST students')
      ? ceiling[0]
      : scenario.startsWith('POST studentSchool')
        ? ceiling[1]
        : scenario.startsWith('GET student by id')
          ? ceiling[2]
          : undefined;
  return [
    `### ${workers} worker process${workers === 1 ? '' : 'es'}`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | server CPU µs/req | failures | raw SQLite ceiling ops/s | req/s ÷ ceiling |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => {
      const limit = ceilingOf(row.scenario);
      return (
        `| ${row.scenario} | ${row.requestsPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.cpuMicrosPerRequest} | ` +
        `${row.failures} | ${limit ? limit.rawPerSecond.toFixed(0) : '–'} | ` +
        `${limit ? (row.requestsPerSecond / limit.rawPerSecond).toFixed(2) : '–'} |`
      );
    }),
  ].join('\n');
}

function writeSection(section: string): void {
  const previous = readFileSync(resultsFile, 'utf8');
  const start = previous.indexOf(sectionTitle);
  const kept = start === -1 ? previous.trimEnd() : previous.slice(0, start).trimEnd();
  writeFileSync(resultsFile, `${kept}\n\n${section}\n`);
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
  const rows = await runHttpScenarios({ workers, durationSeconds, connections, port: 18_080 + workers });
  const table = httpTable(workers, rows, ceiling);
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
    'load generator and server on the same machine (not pinned). Server CPU is user + system time of the server',
    'process and its workers over the measured run, divided by the requests served.',
    '',
    '### Store ceiling (in process, commit per write, WAL, synchronous=NORMAL)',
    '',
    formatCeilingTable(ceiling),
    '',
    ...tables.flatMap((table) => [table, '']),
  ].join('\n'),
);
