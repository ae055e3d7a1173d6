// The tables of a benchmark run: stores side by side (req/s against each store's raw ceiling, CPU per request), or
// this checkout against a baseline checkout (after ÷ before). Cells are `median (min–max)` over the rounds.
import type { BenchStore } from './bench-stores.js';
import type { CeilingRow } from './ceiling-workload.js';
import type { HttpScenarioResult } from './http.js';
import type { Checkout, RunResults, Variant } from './rounds.js';
import { formatRatio, formatSpread } from './statistics.js';
import { formatCeilingTable } from './store-ceiling.js';
import { median } from './statistics.js';

type Cell = string;

function markdownTable(header: readonly string[], rows: readonly Cell[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| --- |${' ---: |'.repeat(header.length - 1)}`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function workersLabel(workers: number): string {
  return `${workers} worker${workers === 1 ? '' : 's'}`;
}

/** The raw ceiling row a scenario is limited by, as an index into the ceiling rows. */
function ceilingIndexOf(scenario: string): number | undefined {
  if (scenario.startsWith('POST students')) return 0;
  if (scenario.startsWith('POST studentSchool')) return 1;
  if (scenario.startsWith('GET student by id')) return 2;
  return undefined;
}

class Lookup {
  constructor(private readonly results: RunResults) {}

  variant(checkout: Checkout['side'], store: BenchStore): Variant | undefined {
    return [...this.results.variants.keys()].find(
      (variant) => variant.checkout.side === checkout && variant.store === store,
    );
  }

  /** Every round's result of one scenario. */
  scenario(variant: Variant | undefined, workers: number, scenario: string): HttpScenarioResult[] {
    if (!variant) return [];
    const rounds = this.results.variants.get(variant)!.http.get(workers) ?? [];
    return rounds.flatMap((rows) => rows.filter((row) => row.scenario === scenario));
  }

  loadSeconds(variant: Variant | undefined): number[] {
    return variant ? this.results.variants.get(variant)!.load.map((run) => run.wallSeconds) : [];
  }

  ceilings(store: BenchStore): CeilingRow[][] {
    return this.results.ceilings.get(store.label) ?? [];
  }

  /** Rows in measured order: worker count and scenario name. */
  scenarioRows(): { workers: number; scenario: string }[] {
    const first = [...this.results.variants.values()][0];
    return [...(first?.http ?? new Map<number, HttpScenarioResult[][]>())].flatMap(([workers, rounds]) =>
      (rounds[0] ?? []).map((row) => ({ workers, scenario: row.scenario })),
    );
  }

  failures(): string[] {
    return [...this.results.variants].flatMap(([variant, measured]) =>
      [...measured.http].flatMap(([workers, rounds]) =>
        rounds
          .flat()
          .filter((row) => row.failures > 0)
          .map(
            (row) =>
              `${variant.store.label} ${variant.checkout.side}, ${workersLabel(workers)}, ${row.scenario}: ` +
              `${row.failures} of ${row.requests}`,
          ),
      ),
    );
  }
}

const pick = (rows: readonly HttpScenarioResult[], value: (row: HttpScenarioResult) => number | undefined) =>
  rows.map(value).filter((each): each is number => each !== undefined);

const LOAD_ROW = 'Grand Bend `load --direct`, wall seconds (whole command, store set up before)';

/** SQLite and PostgreSQL (or one of them) side by side, this checkout only. */
export function storesTable(results: RunResults, stores: readonly BenchStore[]): string {
  const lookup = new Lookup(results);
  const header = ['scenario'];
  for (const store of stores) {
    header.push(`${store.label} req/s`, '÷ raw ceiling', 'server CPU µs/req');
    if (store.kind === 'postgres') header.push('PostgreSQL CPU µs/req');
  }
  const cellsFor = (store: BenchStore, values: Cell[]): Cell[] =>
    store.kind === 'postgres' ? values : values.slice(0, 3);
  const ceilingRows = (lookup.ceilings(stores[0]!)[0] ?? []).map((row, index) => [
    `raw ceiling: ${row.operation}, ops/s`,
    ...stores.flatMap((store) =>
      cellsFor(store, [
        formatSpread(lookup.ceilings(store).map((rounds) => rounds[index]!.rawPerSecond)),
        '–',
        '–',
        '–',
      ]),
    ),
  ]);
  const scenarioRows = lookup.scenarioRows().map(({ workers, scenario }) => [
    `${workersLabel(workers)}: ${scenario}`,
    ...stores.flatMap((store) => {
      const rows = lookup.scenario(lookup.variant('after', store), workers, scenario);
      const index = ceilingIndexOf(scenario);
      const ceiling = index === undefined ? [] : lookup.ceilings(store).map((rounds) => rounds[index]!.rawPerSecond);
      const requestsPerSecond = pick(rows, (row) => row.requestsPerSecond);
      return cellsFor(store, [
        formatSpread(requestsPerSecond),
        formatRatio(requestsPerSecond, ceiling),
        formatSpread(pick(rows, (row) => row.cpuMicrosPerRequest)),
        formatSpread(pick(rows, (row) => row.databaseCpuMicrosPerRequest)),
      ]);
    }),
  ]);
  const loadRow = [
    LOAD_ROW,
    ...stores.flatMap((store) =>
      cellsFor(store, [formatSpread(lookup.loadSeconds(lookup.variant('after', store))), '–', '–', '–']),
    ),
  ];
  return markdownTable(header, [...ceilingRows, ...scenarioRows, loadRow]);
}

/** The SQLite store in process against raw better-sqlite3, from the medians of the rounds. */
export function sqliteStoreCeilingTable(results: RunResults, sqlite: BenchStore): string {
  const rounds = new Lookup(results).ceilings(sqlite);
  const medianOf = (index: number, value: (row: CeilingRow) => number | undefined): number =>
    median(rounds.map((rows) => value(rows[index]!) ?? NaN));
  return formatCeilingTable(
    (rounds[0] ?? []).map((row, index) => ({
      operation: row.operation,
      rawPerSecond: medianOf(index, (each) => each.rawPerSecond),
      storePerSecond: medianOf(index, (each) => each.storePerSecond),
    })),
  );
}

/** This checkout (after) against the baseline (before), per store: req/s and server CPU per request. */
export function baselineTable(results: RunResults, stores: readonly BenchStore[]): string {
  const lookup = new Lookup(results);
  const header = ['scenario'];
  for (const store of stores)
    header.push(
      `${store.label} req/s before`,
      'after',
      'after ÷ before',
      'server CPU µs/req before',
      'after',
      'after ÷ before',
    );
  const beforeAfter = (before: number[], after: number[]): Cell[] => [
    formatSpread(before),
    formatSpread(after),
    formatRatio(after, before),
  ];
  const scenarioRows = lookup.scenarioRows().map(({ workers, scenario }) => [
    `${workersLabel(workers)}: ${scenario}`,
    ...stores.flatMap((store) => {
      const [before, after] = (['before', 'after'] as const).map((side) =>
        lookup.scenario(lookup.variant(side, store), workers, scenario),
      ) as [HttpScenarioResult[], HttpScenarioResult[]];
      return [
        ...beforeAfter(
          pick(before, (row) => row.requestsPerSecond),
          pick(after, (row) => row.requestsPerSecond),
        ),
        ...beforeAfter(
          pick(before, (row) => row.cpuMicrosPerRequest),
          pick(after, (row) => row.cpuMicrosPerRequest),
        ),
      ];
    }),
  ]);
  const loadRow = [
    LOAD_ROW,
    ...stores.flatMap((store) => [
      ...beforeAfter(
        lookup.loadSeconds(lookup.variant('before', store)),
        lookup.loadSeconds(lookup.variant('after', store)),
      ),
      '–',
      '–',
      '–',
    ]),
  ];
  return markdownTable(header, [...scenarioRows, loadRow]);
}

/** The direct load's own summary per variant (documents loaded and failed), and any failed requests. */
export function runNotes(results: RunResults): string[] {
  const baseline = [...results.variants.keys()].some((variant) => variant.checkout.side === 'before');
  const loads = [...results.variants].map(([variant, measured]) => {
    const name = `${variant.store.label}${baseline ? ` ${variant.checkout.side}` : ''}`;
    // Without the temporary store's name, so identical summaries of the rounds show once.
    const summaries = new Set(measured.load.map((run) => run.summary.replace(/ into \S+/, '')));
    return `- ${name}: ${[...summaries].join('; ')}`;
  });
  const failures = new Lookup(results).failures();
  return [
    "Grand Bend direct loads (the CLI's summary; the sample's known gaps fail 160 records):",
    ...loads,
    ...(failures.length === 0
      ? []
      : ['', 'Failed requests (non-2xx, errors, timeouts):', ...failures.map((line) => `- ${line}`)]),
  ];
}
