#!/usr/bin/env node
// In-process micro-benchmarks of the built framework (framework spec, Part C §4.4): the full pipeline of S1–S6
// through server.inject() (no sockets), and body parsing of 200 B / 10 KB JSON and forms. Deterministic inputs;
// each benchmark reports the median ns/op over a fixed number of timed batches.
//
// Usage: node --expose-gc bench/micro.mjs [--quick] [--json] [--save-baseline] [--check]
//        (or: npm run bench -w packages/framework -- --micro [options])
// Router lookup and JWT verify have their own micro-benchmarks in bench/micro/ (router-lookup.ts, jwt-verify.ts).

import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { URLSearchParams, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { Buffer } from 'node:buffer';
import { SCENARIOS, compareResponse } from './scenarios.mjs';
import { ITEM_BODY } from './servers/common.mjs';
import { buildOurs, distMissing } from './servers/ours-app.mjs';

const BASELINE = new URL('micro-baseline.json', import.meta.url);
const REGRESSION_LIMIT = 1.2;

const USAGE = `Usage: node --expose-gc bench/micro.mjs [options]

  --quick           fewer, shorter batches (smoke run)
  --batches N       timed batches per benchmark (default 30; --quick 8)
  --batch-ms MS     target duration of a batch (default 20; --quick 5)
  --jwt-cache N     the framework's JWT cache size (default 0 = off, as in the HTTP benchmark)
  --only LIST       comma list of benchmark names (prefix match)
  --json            also write bench/results/micro-<date>.json
  --save-baseline   write the medians to bench/micro-baseline.json
  --check           compare with bench/micro-baseline.json; exit 1 if a median is > 20 % worse
  --help`;

function parseOptions() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      batches: { type: 'string' },
      'batch-ms': { type: 'string' },
      'jwt-cache': { type: 'string' },
      only: { type: 'string' },
      json: { type: 'boolean', default: false },
      'save-baseline': { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const int = (name, fallback, min, max) => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`--${name}: integer in [${min}, ${max}]`);
    return value;
  };
  return {
    help: values.help,
    quick: values.quick,
    batches: int('batches', values.quick ? 8 : 30, 3, 1000),
    batchMs: int('batch-ms', values.quick ? 5 : 20, 1, 1000),
    jwtCache: int('jwt-cache', 0, 0, 1_000_000),
    only: values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    json: values.json,
    saveBaseline: values['save-baseline'],
    check: values.check,
  };
}

// ------------------------------------------------------------------------------------------------------- inputs

/** A deterministic JSON object of about `bytes` bytes (string, number and boolean fields). */
function jsonOfSize(bytes) {
  const value = {};
  for (let i = 0; JSON.stringify(value).length < bytes - 40; i++) {
    value[`field${i}`] = i % 3 === 0 ? `value-${i}-${'x'.repeat(20)}` : i % 3 === 1 ? i * 1.5 : i % 2 === 0;
  }
  return JSON.stringify(value);
}

/** A deterministic urlencoded form of about `bytes` bytes. */
function formOfSize(bytes) {
  const params = new URLSearchParams();
  for (let i = 0; params.toString().length < bytes - 30; i++) params.append(`field${i}`, `value ${i} & more`);
  return params.toString();
}

const JSON_10K = jsonOfSize(10 * 1024);
const FORM_200 = formOfSize(200);
const FORM_10K = formOfSize(10 * 1024);

function echoRoutes({ route }) {
  return [
    route.post('/echo', { auth: ['none'] }, async (ctx) => {
      const body = await ctx.body();
      return { keys: Object.keys(body).length };
    }),
  ];
}

function post(body, type) {
  return { method: 'POST', url: '/api/v1/echo', headers: { 'content-type': type }, body };
}

function keysOf(text, type) {
  return type === 'json' ? Object.keys(JSON.parse(text)).length : [...new URLSearchParams(text).keys()].length;
}

// ----------------------------------------------------------------------------------------------------- measuring

function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

let _sink;

async function runBatch(fn, n, sync) {
  const start = process.hrtime.bigint();
  if (sync) for (let i = 0; i < n; i++) _sink = fn();
  else for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - start);
}

/** Warm-up (bounded in time and count), calibration to ~batchMs per batch, then `batches` timed batches. */
async function measure(fn, { batches, batchMs }, sync = false) {
  globalThis.gc?.();
  const warmDeadline = Date.now() + Math.max(100, batchMs * 10);
  let warm = 0;
  while (Date.now() < warmDeadline && warm < 200_000) {
    _sink = sync ? fn() : await fn();
    warm++;
  }
  let n = 16;
  for (let i = 0; i < 20; i++) {
    const ns = await runBatch(fn, n, sync);
    if (ns >= batchMs * 1e6 || n >= 1_000_000) break;
    n = Math.min(1_000_000, Math.max(n * 2, Math.ceil((n * batchMs * 1e6) / Math.max(ns, 1))));
  }
  const perOp = [];
  for (let b = 0; b < batches; b++) perOp.push((await runBatch(fn, n, sync)) / n);
  perOp.sort((a, b) => a - b);
  return {
    median: quantile(perOp, 0.5),
    q1: quantile(perOp, 0.25),
    q3: quantile(perOp, 0.75),
    min: perOp[0],
    batchSize: n,
  };
}

// ---------------------------------------------------------------------------------------------------------- main

async function main() {
  let options;
  try {
    options = parseOptions();
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const missing = distMissing();
  if (missing !== null) {
    console.error(`micro-benchmarks skipped: ${missing}`);
    process.exit(2);
  }
  if (!globalThis.gc) console.warn('(run with node --expose-gc for a collection before each benchmark)');

  const jwtCache = options.jwtCache;
  const servers = {
    base: await buildOurs({ routes: 60, usersAuth: 'none', jwtCache }, echoRoutes),
    auth: await buildOurs({ routes: 60, usersAuth: 'bearer', jwtCache }),
    large: await buildOurs({ routes: 600, usersAuth: 'none', jwtCache }),
  };

  // name → { server, request, verify(response) → null | reason }
  const cases = [];
  for (const [id, scenario] of Object.entries(SCENARIOS)) {
    const { method, path, headers, body } = scenario.request;
    cases.push({
      name: `dispatch ${id}`,
      server: servers[scenario.variant],
      request: { method, url: path, headers, body },
      verify: (r) => compareResponse(scenario, { status: r.status, headers: r.headers, text: r.body }),
    });
  }
  const bodies = [
    ['body {} JSON (baseline)', '{}', 'application/json', 'json'],
    ['body 200 B JSON', ITEM_BODY, 'application/json', 'json'],
    ['body 10 KB JSON', JSON_10K, 'application/json', 'json'],
    ['body 200 B form', FORM_200, 'application/x-www-form-urlencoded', 'form'],
    ['body 10 KB form', FORM_10K, 'application/x-www-form-urlencoded', 'form'],
  ];
  for (const [name, text, type, kind] of bodies) {
    const keys = keysOf(text, kind);
    cases.push({
      name: `${name} (${Buffer.byteLength(text)} B)`,
      server: servers.base,
      request: post(text, type),
      verify: (r) => (r.status === 200 && r.json().keys === keys ? null : `got ${r.status} ${r.body.slice(0, 200)}`),
    });
  }

  // Reference rows: the bare parse of the same inputs, so the framework's share of a body row can be read off.
  const form = (text) => {
    const out = Object.create(null);
    for (const [k, v] of new URLSearchParams(text)) out[k] = v;
    return out;
  };
  for (const [name, text, parse] of [
    ['ref JSON.parse 200 B', ITEM_BODY, JSON.parse],
    ['ref JSON.parse 10 KB', JSON_10K, JSON.parse],
    ['ref URLSearchParams 200 B', FORM_200, form],
    ['ref URLSearchParams 10 KB', FORM_10K, form],
  ]) {
    cases.push({ name, sync: () => parse(text), verify: () => null });
  }

  const selected = options.only ? cases.filter((c) => options.only.some((o) => c.name.startsWith(o))) : cases;
  const results = [];
  console.log(
    `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}; ${options.batches} batches of ~${options.batchMs} ms`,
  );
  console.log(`${'benchmark'.padEnd(34)} ${'ns/op'.padStart(10)} ${'IQR'.padStart(19)} ${'ops/s'.padStart(11)}`);
  for (const c of selected) {
    const problem = c.verify(c.sync ? c.sync() : await c.server.inject(c.request));
    if (problem !== null) {
      console.log(`${c.name.padEnd(34)} NOT MEASURED: wrong answer: ${problem}`);
      results.push({ name: c.name, failed: problem });
      continue;
    }
    const { server, request } = c;
    const stats = c.sync ? await measure(c.sync, options, true) : await measure(() => server.inject(request), options);
    results.push({ name: c.name, ...stats });
    console.log(
      `${c.name.padEnd(34)} ${stats.median.toFixed(0).padStart(10)} ${`${stats.q1.toFixed(0)}–${stats.q3.toFixed(0)}`.padStart(19)} ${Math.round(
        1e9 / stats.median,
      )
        .toLocaleString('en-US')
        .padStart(11)}`,
    );
  }

  const byName = Object.fromEntries(results.filter((r) => !r.failed).map((r) => [r.name, r.median]));
  if (byName['dispatch S2'] && byName['dispatch S6']) {
    const ratio = byName['dispatch S6'] / byName['dispatch S2'];
    console.log(
      `\nS6 (600 routes) vs S2 (60 routes) full dispatch: ${((ratio - 1) * 100).toFixed(1)} % ` +
        `(target: lookup within +20 %; the router micro-benchmark isolates the lookup) → ${ratio <= 1.2 ? 'met' : 'missed'}`,
    );
  }

  const meta = { date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model, options };
  if (options.json) {
    const dir = new URL('results/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    const file = new URL(`micro-${meta.date.replace(/[:.]/g, '-')}.json`, dir);
    writeFileSync(file, `${JSON.stringify({ meta, results }, null, 2)}\n`);
    console.log(`\nResults: ${fileURLToPath(file)}`);
  }
  if (options.saveBaseline) {
    const medians = Object.fromEntries(Object.entries(byName).map(([k, v]) => [k, Math.round(v)]));
    writeFileSync(
      BASELINE,
      `${JSON.stringify({ meta: { date: meta.date, node: meta.node, cpu: meta.cpu }, medians }, null, 2)}\n`,
    );
    console.log(`Baseline written: ${fileURLToPath(BASELINE)}`);
  }
  let failed = results.some((r) => r.failed);
  if (options.check) {
    if (!existsSync(BASELINE)) {
      console.error(`--check: no baseline at ${fileURLToPath(BASELINE)} (create one with --save-baseline)`);
      process.exit(2);
    }
    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')).medians;
    for (const [name, median] of Object.entries(byName)) {
      const base = baseline[name];
      if (base === undefined) continue;
      const ratio = median / base;
      const bad = ratio > REGRESSION_LIMIT;
      if (bad) failed = true;
      console.log(
        `${bad ? 'REGRESSION' : 'ok        '} ${name}: ${median.toFixed(0)} ns vs baseline ${base} ns (${((ratio - 1) * 100).toFixed(1)} %)`,
      );
    }
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
