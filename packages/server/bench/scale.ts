// The scale benchmark (`npm run bench:scale -w packages/server -- [--sizes 1000,10000] [--stores sqlite,postgres://…]
// [--rounds 3] [--deletes 10000] [--skip 'change feed,…' | --only 'change feed,…'] [--keep] [--indexed-only]
// [--port 18300] [--reuse sqlite:/…/bench.sqlite=1000000,…]`): a generated state of each size on each store, then
// rounds in which every (store, size) server is started (timed) and measured over HTTP (scale-operations.ts), the
// order reversed every other round. Writes a table and an SVG chart per store into bench/SCALE.md and beside it. Needs
// `npm run build` (the server runs from dist). The 1M-student size is the same command with `--sizes 1000000` (see
// SCALE.md).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { freshStore, parseBenchStore, type BenchStore, type FreshStore } from './bench-stores.js';
import { builtCliAvailable, describeCheckout, thisCheckout } from './checkouts.js';
import { tokenFor } from './http.js';
import { measureOperations, OPERATION_NAMES, type Figures } from './scale-operations.js';
import { writeScaleReport, type ScaleRun } from './scale-report.js';
import { prepareState, reusedState, type PreparedState } from './scale-state.js';
import { roomForCopy, withoutQueryFieldIndexes } from './scale-variants.js';
import { startServer } from './server-process.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    stores: { type: 'string', default: 'sqlite,postgres://postgres@127.0.0.1:5432/test' },
    rounds: { type: 'string', default: '3' },
    deletes: { type: 'string', default: '10000' },
    // e.g. the offset-paged change feed, whose full read is quadratic in the rows before the keyset memo
    skip: { type: 'string', default: '' },
    // A run of some operations only writes sections (and charts) of their own, e.g. "SQLite (change feed)".
    only: { type: 'string' },
    // Where the servers listen: another port lets two runs go at once.
    port: { type: 'string', default: '18300' },
    // States an earlier run generated and kept (or was stopped after), as SPEC=STUDENTS,…: measured instead of --sizes.
    reuse: { type: 'string' },
    // The generated stores stay (their specs logged) for measurements of one's own.
    keep: { type: 'boolean', default: false },
    // No SQLite copies without the query-field indexes (their "before").
    'indexed-only': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);
const labelled = (store: BenchStore): BenchStore =>
  values.only === undefined ? store : { ...store, label: `${store.label} (${values.only})` };
const stores = values.stores.split(',').map(parseBenchStore).map(labelled);
const reused = (values.reuse ?? '')
  .split(',')
  .filter((entry) => entry !== '')
  .map((entry) => {
    // A PostgreSQL spec holds an = of its own (schema=…): the count follows the last one.
    const at = entry.lastIndexOf('=');
    return [entry.slice(0, at), Number(entry.slice(at + 1))] as const;
  });
const rounds = Number(values.rounds);
const deletes = Number(values.deletes);
const namesOf = (option: string, list: string) => {
  const names = list.split(',').filter((name) => name !== '');
  for (const name of names)
    if (!OPERATION_NAMES.includes(name))
      throw new Error(`${option}: no operation '${name}' (${OPERATION_NAMES.join(', ')})`);
  return names;
};
const only = values.only === undefined ? undefined : namesOf('--only', values.only);
const skipped = new Set(
  only === undefined ? namesOf('--skip', values.skip) : OPERATION_NAMES.filter((name) => !only.includes(name)),
);
const PORT = Number(values.port);

if (!builtCliAvailable()) throw new Error('Build first: npm run build (the benchmark runs the server from dist/)');

function residentMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1] ?? 0) / 1024;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function measureRound(state: PreparedState, round: number): Promise<Figures> {
  const started = performance.now();
  const server = await startServer({ cli: thisCheckout, store: state.spec, port: PORT, workers: 1 });
  const startSeconds = (performance.now() - started) / 1000;
  try {
    const token = (name: keyof PreparedState['clients']) =>
      tokenFor(server, state.clients[name].key, state.clients[name].secret);
    const tokens = {
      sea: await token('sea'),
      publisher: await token('publisher'),
      lea: await token('lea'),
      school: await token('school'),
      lastLea: await token('lastLea'),
      lastSchool: await token('lastSchool'),
      unauthorized: await token('unauthorized'),
    };
    const target = { url: server.url, tokens, samples: state.samples, round };
    const figures = await measureOperations(target, log, skipped);
    figures.set('start-up, s', startSeconds);
    figures.set('server RSS after the round, MiB', residentMiB(server.pid));
    return figures;
  } finally {
    await server.stop();
  }
}

const fresh: FreshStore[] = [];
try {
  const states: PreparedState[] = [];
  // One store per kind, so that the report keeps the reused states of a kind in one section.
  const reusedStores = new Map<string, BenchStore>();
  for (const [spec, students] of reused) {
    const parsed = parseBenchStore(spec);
    const store = reusedStores.get(parsed.kind) ?? labelled(parsed);
    reusedStores.set(parsed.kind, store);
    log(`${store.label}, ${students} students: reusing ${spec}`);
    states.push(await reusedState({ store, spec, students, port: PORT, deletes, log }));
  }
  for (const store of reused.length > 0 ? [] : stores)
    for (const students of sizes) {
      const created = await freshStore(store);
      fresh.push(created);
      log(`${store.label}, ${students} students: generating`);
      const state = await prepareState({ store, spec: created.spec, students, port: PORT, deletes, log });
      states.push(state);
      if (store.kind !== 'sqlite' || values['indexed-only']) continue;
      if (roomForCopy(state)) states.push(await withoutQueryFieldIndexes(state));
      else log('    not enough free disk for the copy without query-field indexes: measured with them only');
    }
  const measured = new Map<PreparedState, Figures[]>(states.map((state) => [state, []]));
  for (let round = 0; round < rounds; round++)
    for (const state of round % 2 === 0 ? states : [...states].reverse()) {
      log(`Round ${round + 1} of ${rounds}: ${state.store.label}, ${state.students} students`);
      measured.get(state)!.push(await measureRound(state, round));
    }
  const run: ScaleRun = { checkout: describeCheckout(thisCheckout), rounds, states, measured, skipped: [...skipped] };
  writeScaleReport(run);
  log('Wrote bench/SCALE.md');
} finally {
  if (values.keep) for (const { spec } of fresh) log(`Kept ${spec}`);
  else for (const store of fresh) await store.dispose();
}
