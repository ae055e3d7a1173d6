// Runs the measurements of one benchmark run round by round: in each round every store's raw ceiling, then every
// variant (checkout × store) through the HTTP scenarios and the Grand Bend direct load, the variants' order reversed
// every other round so drifts of a shared machine hit all of them alike. Every run gets a new store of its own.
import { withFreshStore, type BenchStore } from './bench-stores.js';
import type { CeilingRow } from './ceiling-workload.js';
import { timeDirectLoad, type DirectLoadRun } from './direct-load.js';
import { runHttpScenarios, type HttpScenarioResult } from './http.js';
import type { Placements } from './placement.js';
import { runPostgresCeilingBenchmark } from './postgres-ceiling.js';
import { postgresCpu } from './postgres-cpu.js';
import type { BuiltCli } from './checkouts.js';
import { runStoreCeilingBenchmark } from './store-ceiling.js';

/** One checkout of the repository: this one (`after`) or the `--baseline` (`before`). */
export interface Checkout {
  readonly side: 'after' | 'before';
  readonly cli: BuiltCli;
}

export interface Variant {
  readonly checkout: Checkout;
  readonly store: BenchStore;
}

export interface RoundPlan {
  readonly rounds: number;
  readonly stores: readonly BenchStore[];
  readonly checkouts: readonly Checkout[];
  readonly workers: readonly number[];
  readonly durationSeconds: number;
  readonly connections: number;
  /** Documents per resource for the raw ceilings; none measured when absent. */
  readonly ceilingCount?: number;
  readonly placements: Placements;
}

/** Everything measured for one variant, one entry per round. */
export interface VariantResults {
  /** By worker count. */
  readonly http: Map<number, HttpScenarioResult[][]>;
  readonly load: DirectLoadRun[];
}

export interface RunResults {
  /** By store label, one list of rows per round. */
  readonly ceilings: Map<string, CeilingRow[][]>;
  readonly variants: Map<Variant, VariantResults>;
}

async function ceilingOf(store: BenchStore, count: number): Promise<CeilingRow[]> {
  // Two inner rounds so the SQLite store and raw sides each go first once.
  const options = { count, rounds: 2 };
  if (store.kind === 'sqlite') return runStoreCeilingBenchmark(options);
  return withFreshStore(store, (spec) => runPostgresCeilingBenchmark(spec, options));
}

async function databaseCpuOf(store: BenchStore, spec: string) {
  return store.kind === 'postgres' ? postgresCpu(spec) : undefined;
}

async function httpRun(plan: RoundPlan, variant: Variant, workers: number): Promise<HttpScenarioResult[]> {
  const placement = plan.placements.for(workers);
  plan.placements.placeLoadGenerator(placement);
  return withFreshStore(variant.store, async (store) => {
    const databaseCpu = await databaseCpuOf(variant.store, store);
    return runHttpScenarios({
      cli: variant.checkout.cli,
      store,
      ...(databaseCpu === undefined ? {} : { databaseCpu }),
      workers,
      durationSeconds: plan.durationSeconds,
      connections: plan.connections,
      port: 18_080 + workers,
      ...(placement.serverCpus === undefined ? {} : { serverCpus: placement.serverCpus }),
    });
  });
}

function inOrder<T>(items: readonly T[], round: number): readonly T[] {
  return round % 2 === 0 ? items : [...items].reverse();
}

function describe(variant: Variant): string {
  return `${variant.store.label}${variant.checkout.side === 'before' ? ' (baseline)' : ''}`;
}

export async function runRounds(plan: RoundPlan, log: (line: string) => void): Promise<RunResults> {
  const variants = plan.checkouts.flatMap((checkout) => plan.stores.map((store) => ({ checkout, store })));
  const results: RunResults = {
    ceilings: new Map(plan.stores.map((store) => [store.label, []])),
    variants: new Map(variants.map((variant) => [variant, { http: new Map(), load: [] }])),
  };
  for (let round = 0; round < plan.rounds; round++) {
    log(`Round ${round + 1} of ${plan.rounds}`);
    if (plan.ceilingCount !== undefined) {
      plan.placements.release();
      for (const store of inOrder(plan.stores, round)) {
        log(`  ${store.label} raw ceiling`);
        results.ceilings.get(store.label)!.push(await ceilingOf(store, plan.ceilingCount));
      }
    }
    for (const variant of inOrder(variants, round)) {
      const measured = results.variants.get(variant)!;
      for (const workers of plan.workers) {
        log(`  ${describe(variant)}: HTTP scenarios, ${workers} worker process${workers === 1 ? '' : 'es'}`);
        const rows = await httpRun(plan, variant, workers);
        measured.http.set(workers, [...(measured.http.get(workers) ?? []), rows]);
      }
      log(`  ${describe(variant)}: load --direct of the Grand Bend sample`);
      plan.placements.release();
      measured.load.push(await withFreshStore(variant.store, (store) => timeDirectLoad(variant.checkout.cli, store)));
    }
  }
  return results;
}
