// `npm run bench -w packages/server`: each store's raw ceiling, the HTTP scenarios (1 and 2 worker processes) and the
// Grand Bend direct load, over several interleaved rounds, written to bench/RESULTS.md as medians and ranges.
//
//   --store sqlite:[folder] | postgres://user@host:port/db   the store (default sqlite:)
//   --stores sqlite:,postgres://…                            several stores side by side, interleaved by round
//   --baseline <another built checkout>                      the same scenarios on that checkout too: after ÷ before
//   --rounds N (3)  --duration s (10)  --connections n (32)  --workers 1,2  --no-pin
//   --quick: short runs to try the harness; prints the tables without writing RESULTS.md
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { parseBenchStore, type BenchStore } from './bench-stores.js';
import { builtCliAvailable, checkoutAt, describeCheckout, thisCheckout } from './checkouts.js';
import { Placements } from './placement.js';
import { writeSection } from './results-file.js';
import { baselineTable, runNotes, sqliteStoreCeilingTable, storesTable } from './results-tables.js';
import { runRounds, type Checkout, type RoundPlan } from './rounds.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    stores: { type: 'string' },
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    workers: { type: 'string', default: '1,2' },
    quick: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: true },
  },
  allowNegative: true,
});

const stores: BenchStore[] = (values.stores ?? values.store ?? 'sqlite:').split(',').map(parseBenchStore);
const checkouts: Checkout[] = [
  { side: 'after', cli: thisCheckout },
  ...(values.baseline === undefined ? [] : [{ side: 'before' as const, cli: checkoutAt(values.baseline) }]),
];
for (const { cli } of checkouts)
  if (!builtCliAvailable(cli)) {
    console.error(`Build first: npm run build in ${cli.root} (the HTTP scenarios run the built server).`);
    process.exit(1);
  }

const placements = new Placements(values.pin);
const plan: RoundPlan = {
  rounds: Number(values.rounds),
  stores,
  checkouts,
  workers: values.workers.split(',').map(Number),
  durationSeconds: values.quick ? 3 : Number(values.duration),
  connections: Number(values.connections),
  // The raw ceilings describe the databases, not the checkouts: measured only when comparing stores.
  ...(values.baseline === undefined ? { ceilingCount: values.quick ? 1_000 : 4_000 } : {}),
  placements,
};
const results = await runRounds(plan, (line) => console.log(line));
/** Quick runs only try the harness: their figures are not published. */
const publish = values.quick ? () => {} : writeSection;

const labels = stores.map((store) => store.label).join(' and ');
const sqlite = stores.find((store) => store.kind === 'sqlite');
const command = `npm run bench -w packages/server --${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
const setting = [
  `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}, Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}.`,
  `Command: \`${command}\`.`,
  `${plan.rounds} round${plan.rounds === 1 ? '' : 's'}, interleaved: each round runs every variant, in reverse order every other round.`,
  'Each cell is the median and, in parentheses, the range over the rounds.',
  `autocannon with ${plan.connections} connections, pipelining 1, ${plan.durationSeconds} s per scenario, on the server's machine`,
  placements.pinning
    ? `(1 worker: ${placements.for(1).description}; more: ${placements.for(2).description}).`
    : '(not pinned).',
  'Every scenario run and every load gets a new store (a new SQLite file; a new PostgreSQL schema, dropped afterwards).',
  'Server CPU: user + system time of the server process and its workers over the measured run, per request served.',
  'PostgreSQL CPU: the same for the postmaster and all its children (backends, WAL writer, …), read from /proc.',
  `This checkout: ${describeCheckout(thisCheckout)}.`,
];

interface Report {
  readonly title: string;
  /** Lines between the setting and the table. */
  readonly intro: readonly string[];
  readonly table: string;
  /** Lines after the table. */
  readonly outro: readonly string[];
}

function storesReport(): Report {
  return {
    title:
      stores.length > 1
        ? `## Store ceiling and HTTP: ${labels} side by side`
        : `## Store ceiling and HTTP${sqlite ? '' : `: ${labels}`}`,
    intro: [
      'Raw ceilings: one transaction per document (document row, resource row, its edges; the same schema and indexes',
      'as the store) and point reads by uuid. SQLite: one caller (commit per write, WAL, synchronous=NORMAL).',
      "PostgreSQL: as many concurrent callers as the store's pool has connections (one server process's pool).",
      '÷ raw ceiling is the ratio of the medians.',
    ],
    table: storesTable(results, stores),
    outro: sqlite
      ? ['SQLite store in process against the raw ceiling (medians):', '', sqliteStoreCeilingTable(results, sqlite), '']
      : [],
  };
}

function baselineReport(baseline: Checkout): Report {
  return {
    title: `## Before and after: ${labels}`,
    intro: [`Baseline (before): ${describeCheckout(baseline.cli)}. after ÷ before is the ratio of the medians.`],
    table: baselineTable(results, stores),
    outro: [],
  };
}

const report = checkouts[1] === undefined ? storesReport() : baselineReport(checkouts[1]);
const trailer = [...report.outro, ...runNotes(results)];
console.log(`\n${report.table}\n\n${trailer.join('\n')}`);
publish(report.title, [...setting, ...report.intro, '', report.table, '', ...trailer].join('\n'));
