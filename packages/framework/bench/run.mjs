#!/usr/bin/env node
// HTTP benchmark of the framework against a hand-written node:http server, Fastify and Hono (framework spec,
// Part C §4.3). Usage: `npm run bench -w packages/framework [-- options]`, or `node bench/run.mjs --help`.
//
// Per round, each server (interleaved: forward order on odd rounds, reverse on even) is forked once per variant,
// pinned to one core while this harness runs on another, checked for correct answers, then loaded with autocannon
// (a warm-up, a measured run with pipelining, a latency run without). Server CPU per request comes from
// process.cpuUsage() deltas over IPC. Results go to bench/results/<date>.json and bench/RESULTS.md.

import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { clearTimeout, setTimeout } from 'node:timers';
import { createRequire } from 'node:module';
import { Buffer } from 'node:buffer';
import autocannon from 'autocannon';
import { freePort } from './free-port.mjs';
import { SCENARIOS, SCENARIO_IDS, VARIANTS, compareResponse } from './scenarios.mjs';

const BENCH_DIR = new URL('./', import.meta.url);
const SERVER_NAMES = ['raw', 'ours', 'fastify', 'hono'];
const OURS_DIST = new URL('../dist/index.js', import.meta.url); // see servers/ours-app.mjs
const PINNED_ENV = 'FRAMEWORK_BENCH_HARNESS_CPU';

const USAGE = `Usage: node bench/run.mjs [options]   (or: npm run bench -w packages/framework -- [options])

  --rounds N            interleaved rounds (default 5; --quick: 2)
  --duration S          measured seconds per scenario, pipelining on (default 10; --quick: 2)
  --warmup S            warm-up seconds before it (default 3; --quick: 1)
  --latency-duration S  seconds of the pipelining-1 latency run (default = --duration; 0 skips it)
  --connections N       autocannon connections (default 100)
  --pipelining N        pipelining of the measured run (default 10)
  --servers LIST        comma list of ${SERVER_NAMES.join(',')} (default all; raw is needed for ratios)
  --scenarios LIST      comma list of ${SCENARIO_IDS.join(',')} (default all)
  --jwt-cache N         fast-jwt verified-token cache size for every server (default 0 = off)
  --wait-quiet S        before each round, wait up to S s for the machine to be under 10 % busy (default 0)
  --quick               short smoke run (values above marked --quick)
  --cpu-prof            write a V8 CPU profile of the ours server to bench/results/
  --no-pin              do not pin with taskset
  --no-md               do not rewrite bench/RESULTS.md
  --micro               run the in-process micro-benchmarks (bench/micro.mjs) instead; other options go to it
  --help`;

// ---------------------------------------------------------------------------------------------------------- options

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'latency-duration': { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      servers: { type: 'string' },
      scenarios: { type: 'string' },
      'jwt-cache': { type: 'string' },
      'wait-quiet': { type: 'string' },
      quick: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      'no-md': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick;
  const num = (name, fallback, { min = 0, max = Infinity, integer = false } = {}) => {
    const raw = values[name];
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw new Error(`--${name} must be a number in [${min}, ${max}]${integer ? ' (integer)' : ''}, got ${raw}`);
    }
    return value;
  };
  const list = (name, all) => {
    if (values[name] === undefined) return all;
    const items = values[name]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = items.filter((s) => !all.includes(s));
    if (unknown.length > 0 || items.length === 0)
      throw new Error(`--${name}: unknown ${unknown.join(',') || '(empty)'}`);
    return all.filter((s) => items.includes(s));
  };
  const duration = num('duration', quick ? 2 : 10, { min: 1, max: 120, integer: true });
  return {
    help: values.help,
    quick,
    rounds: num('rounds', quick ? 2 : 5, { min: 1, max: 50, integer: true }),
    duration,
    warmup: num('warmup', quick ? 1 : 3, { min: 0, max: 60, integer: true }),
    latencyDuration: num('latency-duration', duration, { min: 0, max: 120, integer: true }),
    connections: num('connections', 100, { min: 1, max: 1000, integer: true }),
    pipelining: num('pipelining', 10, { min: 1, max: 100, integer: true }),
    servers: list('servers', SERVER_NAMES),
    scenarios: list('scenarios', SCENARIO_IDS),
    jwtCache: num('jwt-cache', 0, { min: 0, max: 1_000_000, integer: true }),
    waitQuiet: num('wait-quiet', 0, { min: 0, max: 3600, integer: true }),
    cpuProf: values['cpu-prof'],
    pin: !values['no-pin'],
    writeMarkdown: !values['no-md'],
  };
}

// -------------------------------------------------------------------------------------------- processes and pinning

const children = new Set();
let currentCannon;

function killAll() {
  currentCannon?.stop();
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
}

function installExitHandlers() {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the servers`);
      killAll();
      process.exit(130);
    });
  }
}

function hasTaskset() {
  const probe = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** CPUs this process may run on, from /proc/self/status (Linux), else 0..n-1. */
function allowedCpus() {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Cpus_allowed_list:'));
    const cpusList = [];
    for (const part of line.split(':')[1].trim().split(',')) {
      const [a, b] = part.split('-').map(Number);
      for (let c = a; c <= (b ?? a); c++) cpusList.push(c);
    }
    return cpusList;
  } catch {
    return Array.from({ length: availableParallelism() }, (_, i) => i);
  }
}

/** Re-runs this script under `taskset -c <cpu>`; this process then only waits for it and forwards signals. */
function reexecPinned(cpu, serverCpu) {
  const script = fileURLToPath(import.meta.url);
  const child = spawn('taskset', ['-c', String(cpu), process.execPath, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [PINNED_ENV]: `${serverCpu}:${cpu}` },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

function pinProcess(pid, cpu) {
  // -a: every thread (V8 and libuv threads already exist right after fork), not only the main one.
  const result = spawnSync('taskset', ['-a', '-pc', String(cpu), String(pid)], { encoding: 'utf8' });
  return result.status === 0;
}

/** Whether every thread of `pid` is allowed exactly on `cpu`. */
function verifyPinned(pid, cpu) {
  try {
    const out = spawnSync('sh', ['-c', `grep -h Cpus_allowed_list /proc/${pid}/task/*/status`], { encoding: 'utf8' });
    const lines = out.stdout.trim().split('\n');
    return lines.length > 0 && lines.every((l) => l.split(':')[1].trim() === String(cpu));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------- machine and noise

function readProcStat() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + (fields[4] ?? 0);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { idle, total };
  } catch {
    return undefined;
  }
}

const CLK_TCK = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const value = Number(out.stdout?.trim());
  return Number.isFinite(value) && value > 0 ? value : 100;
})();

/** Non-idle share of all CPUs over `ms` (0..1), or undefined without /proc/stat. */
async function busyShare(ms) {
  const a = readProcStat();
  await sleep(ms);
  const b = readProcStat();
  if (a === undefined || b === undefined || b.total === a.total) return undefined;
  return 1 - (b.idle - a.idle) / (b.total - a.total);
}

/** Waits (1 s samples, at most `seconds`) until the machine is under 10 % busy; returns whether it got quiet. */
async function waitQuiet(seconds) {
  const deadline = Date.now() + seconds * 1000;
  let share;
  while (Date.now() < deadline) {
    share = await busyShare(1000);
    if (share === undefined || share <= 0.1) return true;
  }
  console.warn(`  still ${(share * 100).toFixed(0)} % busy after waiting ${seconds} s; going on (NOISY)`);
  return false;
}

function machineInfo() {
  const list = cpus();
  return {
    cpuModel: list[0]?.model ?? 'unknown',
    cores: list.length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

function packageVersion(name) {
  try {
    const require = createRequire(import.meta.url);
    const path = require.resolve(`${name}/package.json`);
    return JSON.parse(readFileSync(path, 'utf8')).version;
  } catch {
    try {
      const require = createRequire(import.meta.url);
      let dir = require.resolve(name);
      while (dir.includes('node_modules')) {
        dir = dir.slice(0, dir.lastIndexOf('/'));
        if (existsSync(`${dir}/package.json`)) {
          const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
          if (pkg.name === name) return pkg.version;
        }
      }
    } catch {
      // fall through
    }
    return 'unknown';
  }
}

function serverVersions() {
  const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return {
    raw: `node ${process.versions.node}`,
    ours: `${own.name} ${own.version}`,
    fastify: `fastify ${packageVersion('fastify')}`,
    hono: `hono ${packageVersion('hono')} + @hono/node-server ${packageVersion('@hono/node-server')}`,
  };
}

// --------------------------------------------------------------------------------------------------- HTTP helpers

async function waitPortFree(port, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const free = await new Promise((resolve) => {
      const server = createNetServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return true;
    await sleep(100);
  }
  return false;
}

/** One request on a fresh connection; resolves `{ status, headers, text }`. */
function send(port, { method, path, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: 5000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs a scenario's correctness checks; returns { errors: string[], notes: string[] }. */
async function verifyScenario(port, scenario) {
  const errors = [];
  const notes = [];
  const probes = [
    { what: 'measured request', request: scenario.request, expect: scenario, blocking: true },
    ...scenario.checks.map((c) => ({ what: c.what, request: c.request, expect: c, blocking: true })),
    ...scenario.notes.map((c) => ({ what: c.what, request: c.request, expect: c, blocking: false })),
  ];
  for (const probe of probes) {
    let problem;
    try {
      problem = compareResponse(probe.expect, await send(port, probe.request));
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem !== null) (probe.blocking ? errors : notes).push(`${probe.what}: ${problem}`);
  }
  return { errors, notes };
}

function runCannon(port, scenario, { duration, connections, pipelining }) {
  const { method, path, headers, body } = scenario.request;
  return new Promise((resolve, reject) => {
    currentCannon = autocannon(
      {
        url: `http://127.0.0.1:${port}${path}`,
        method,
        headers,
        body,
        connections,
        pipelining,
        duration,
        timeout: 10,
      },
      (error, result) => {
        currentCannon = undefined;
        if (error) reject(error);
        else resolve(result);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------- server sessions

function requestStats(child) {
  return new Promise((resolve, reject) => {
    if (!child.connected) {
      reject(new Error('the server is gone (IPC channel closed)'));
      return;
    }
    const id = Math.random().toString(36).slice(2);
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error('no stats answer over IPC within 5 s'));
    }, 5000);
    const onMessage = (message) => {
      if (message?.type === 'stats' && message.id === id) {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve({ cpuUs: message.cpu.user + message.cpu.system, rss: message.rss });
      }
    };
    child.on('message', onMessage);
    child.send({ type: 'stats', id });
  });
}

function startServer(name, variant, port, options, serverCpu) {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    ...VARIANTS[variant],
    JWT_CACHE: String(options.jwtCache),
  };
  delete env[PINNED_ENV];
  const execArgv =
    options.cpuProf && name === 'ours'
      ? ['--cpu-prof', `--cpu-prof-dir=${fileURLToPath(new URL('results/', BENCH_DIR))}`]
      : [];
  const child = fork(fileURLToPath(new URL(`servers/${name}.mjs`, BENCH_DIR)), [], {
    env,
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  // A send() racing with the child's death reports here instead of crashing the harness.
  child.on('error', (error) => console.error(`  ${name}: ${error.message}`));
  if (serverCpu !== undefined) pinProcess(child.pid, serverCpu);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('no ready message within 20 s')), 20_000);
    const onMessage = (message) => {
      if (message?.type === 'ready') finish();
      else if (message?.type === 'error') finish(new Error(message.message));
    };
    const onExit = (code, signal) => finish(new Error(`exited before ready (code ${code}, signal ${signal})`));
    function finish(error) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
        return;
      }
      let pinned = false;
      if (serverCpu !== undefined) pinned = pinProcess(child.pid, serverCpu) && verifyPinned(child.pid, serverCpu);
      resolve({ child, pinned });
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

async function stopServer(child, port) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  children.delete(child);
  if (!(await waitPortFree(port))) throw new Error(`port ${port} still busy after the server exited`);
}

/** Measures one autocannon run with server CPU/RSS deltas, harness CPU and foreign CPU load. */
async function measuredRun(child, port, scenario, runOptions, serverCpuUs0) {
  const before = serverCpuUs0 ?? (await requestStats(child)).cpuUs;
  const harness0 = process.cpuUsage();
  const stat0 = readProcStat();
  const result = await runCannon(port, scenario, runOptions);
  const stat1 = readProcStat();
  const harness1 = process.cpuUsage(harness0);
  const after = await requestStats(child);
  const requests = result.requests.total;
  const seconds = result.duration;
  const serverCpuUs = after.cpuUs - before;
  const harnessCpuUs = harness1.user + harness1.system;
  let foreignPct;
  if (stat0 && stat1) {
    const busySeconds = (stat1.total - stat0.total - (stat1.idle - stat0.idle)) / CLK_TCK;
    foreignPct = Math.max(0, ((busySeconds - (serverCpuUs + harnessCpuUs) / 1e6) / seconds) * 100);
  }
  const expected = String(scenario.status);
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const unexpected = Object.entries(codes).reduce((n, [code, count]) => (code === expected ? n : n + count), 0);
  return {
    record: {
      connections: runOptions.connections,
      pipelining: runOptions.pipelining,
      seconds,
      requests,
      rps: requests / seconds,
      cpuUsPerReq: requests > 0 ? serverCpuUs / requests : null,
      serverCpuPct: (serverCpuUs / 1e6 / seconds) * 100,
      loadgenCpuPct: (harnessCpuUs / 1e6 / seconds) * 100,
      foreignCpuPct: foreignPct,
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average },
      errors: result.errors,
      timeouts: result.timeouts,
      unexpectedStatus: unexpected,
      statusCodes: codes,
      rss: after.rss,
    },
    cpuUs: after.cpuUs,
  };
}

/** One forked server for one variant: checks, then measures each scenario. Bounded by a hard timeout. */
async function runSession({ name, variant, scenarioIds, port, options, serverCpu, round, log }) {
  const perScenario = options.warmup + options.duration + options.latencyDuration + 20;
  const budgetMs = (scenarioIds.length * perScenario + 40) * 1000;
  const results = [];
  let child;
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    console.error(`  ${name}/${variant}: hard timeout of ${Math.round(budgetMs / 1000)} s reached, killing it`);
    currentCannon?.stop();
    child?.kill('SIGKILL');
  }, budgetMs);
  try {
    const started = await startServer(name, variant, port, options, serverCpu);
    child = started.child;
    for (const id of scenarioIds) {
      if (timedOut) throw new Error('hard timeout');
      const scenario = SCENARIOS[id];
      const entry = { round, server: name, scenario: id, variant, pinned: started.pinned };
      const check = await verifyScenario(port, scenario);
      entry.notes = check.notes;
      if (check.errors.length > 0) {
        entry.failed = `correctness check failed: ${check.errors.join('; ')}`;
        log(`  r${round} ${name.padEnd(7)} ${id} NOT MEASURED: ${entry.failed}`);
        results.push(entry);
        continue;
      }
      const base = { connections: options.connections };
      if (options.warmup > 0)
        await runCannon(port, scenario, { ...base, pipelining: options.pipelining, duration: options.warmup });
      if (timedOut) throw new Error('hard timeout');
      const main = await measuredRun(child, port, scenario, {
        ...base,
        pipelining: options.pipelining,
        duration: options.duration,
      });
      entry.throughput = main.record;
      if (options.latencyDuration > 0) {
        if (timedOut) throw new Error('hard timeout');
        const lat = await measuredRun(
          child,
          port,
          scenario,
          { ...base, pipelining: 1, duration: options.latencyDuration },
          main.cpuUs,
        );
        entry.latency = lat.record;
      }
      results.push(entry);
      log(formatRunLine(entry));
    }
  } catch (error) {
    const message = timedOut ? 'hard timeout' : error instanceof Error ? error.message : String(error);
    const done = new Set(results.map((r) => r.scenario));
    for (const id of scenarioIds) {
      if (!done.has(id)) results.push({ round, server: name, scenario: id, variant, failed: message });
    }
    log(`  r${round} ${name.padEnd(7)} ${variant}: FAILED: ${message}`);
  } finally {
    clearTimeout(watchdog);
    if (child) await stopServer(child, port).catch((error) => log(`  ${name}: ${error.message}`));
  }
  return results;
}

// -------------------------------------------------------------------------------------------------- statistics

function quantile(sorted, q) {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function summary(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return { median: quantile(sorted, 0.5), q1: quantile(sorted, 0.25), q3: quantile(sorted, 0.75), n: sorted.length };
}

function aggregate(runs, options) {
  const byKey = new Map();
  for (const run of runs) {
    const key = `${run.server}/${run.scenario}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(run);
  }
  const rawByRound = new Map(
    runs.filter((r) => r.server === 'raw' && r.throughput).map((r) => [`${r.round}/${r.scenario}`, r]),
  );
  const result = {};
  for (const id of options.scenarios) {
    result[id] = {};
    for (const server of options.servers) {
      const list = byKey.get(`${server}/${id}`) ?? [];
      const ok = list.filter((r) => r.throughput);
      const paired = ok.map((r) => [r, rawByRound.get(`${r.round}/${id}`)]).filter(([, raw]) => raw !== undefined);
      result[id][server] = {
        measuredRounds: ok.length,
        failures: [...new Set(list.filter((r) => r.failed).map((r) => r.failed))],
        notes: [...new Set(list.flatMap((r) => r.notes ?? []))],
        rps: summary(ok.map((r) => r.throughput.rps)),
        cpuUsPerReq: summary(ok.map((r) => r.throughput.cpuUsPerReq)),
        rssMb: summary(ok.map((r) => r.throughput.rss / 1048576)),
        loadgenCpuPct: summary(ok.map((r) => r.throughput.loadgenCpuPct)),
        serverCpuPct: summary(ok.map((r) => r.throughput.serverCpuPct)),
        foreignCpuPct: summary(ok.map((r) => r.throughput.foreignCpuPct)),
        errors: ok.reduce((n, r) => n + r.throughput.errors + r.throughput.timeouts, 0),
        unexpectedStatus: ok.reduce(
          (n, r) => n + r.throughput.unexpectedStatus + (r.latency?.unexpectedStatus ?? 0),
          0,
        ),
        latency: {
          rps: summary(ok.map((r) => r.latency?.rps)),
          p50: summary(ok.map((r) => r.latency?.latencyMs.p50)),
          p99: summary(ok.map((r) => r.latency?.latencyMs.p99)),
          cpuUsPerReq: summary(ok.map((r) => r.latency?.cpuUsPerReq)),
        },
        // Paired with raw in the same round, so slow drifts of the machine cancel out.
        pctOfRaw: summary(paired.map(([r, raw]) => (r.throughput.rps / raw.throughput.rps) * 100)),
        cpuUsOverRaw: summary(paired.map(([r, raw]) => r.throughput.cpuUsPerReq - raw.throughput.cpuUsPerReq)),
      };
    }
  }
  return result;
}

function evaluateTargets(agg) {
  const targets = [];
  const get = (id, server) => agg[id]?.[server];
  const verdict = (ok) => (ok === undefined ? 'n/a' : ok ? 'met' : 'missed');
  const median = (s) => s?.median;
  const ahead = (id, peer) => {
    const ours = median(get(id, 'ours')?.rps);
    const other = median(get(id, peer)?.rps);
    return ours === undefined || other === undefined ? undefined : ours > other;
  };
  const versus = (id, peers) =>
    ['ours', ...peers].map((server) => `${server} ${n0(median(get(id, server)?.rps))}`).join(' vs ');
  const fmtPct = (v) => (v === undefined ? '–' : `${v.toFixed(1)} %`);
  const pct = (id) => median(get(id, 'ours')?.pctOfRaw);

  // Issue 18: share of raw per scenario, and ahead of both peers on req/s and on CPU per request everywhere.
  const rawShare = { S1: 95, S2: 95, S3: 90, S4: 90, S5: 95 };
  for (const [id, floor] of Object.entries(rawShare)) {
    if (!agg[id]) continue;
    const p = pct(id);
    targets.push({
      target: `${id} req/s ≥ ${floor} % of raw`,
      value: fmtPct(p),
      status: verdict(p === undefined ? undefined : p >= floor),
    });
  }
  if (agg.S1) {
    const added = median(get('S1', 'ours')?.cpuUsOverRaw);
    targets.push({
      target: 'S1 CPU ≤ raw + 1 µs/request',
      value: added === undefined ? '–' : `${added >= 0 ? '+' : ''}${added.toFixed(2)} µs`,
      status: verdict(added === undefined ? undefined : added <= 1),
    });
  }
  const cpuAhead = (id, peer) => {
    const ours = median(get(id, 'ours')?.cpuUsPerReq);
    const other = median(get(id, peer)?.cpuUsPerReq);
    return ours === undefined || other === undefined ? undefined : ours < other;
  };
  const cpuVersus = (id, peers) =>
    ['ours', ...peers].map((server) => `${server} ${n2(median(get(id, server)?.cpuUsPerReq))}`).join(' vs ');
  const both = (a, b) => (a === undefined || b === undefined ? undefined : a && b);
  for (const id of SCENARIO_IDS) {
    if (!agg[id]) continue;
    targets.push({
      target: `${id} ahead of Fastify and Hono (req/s)`,
      value: versus(id, ['fastify', 'hono']),
      status: verdict(both(ahead(id, 'fastify'), ahead(id, 'hono'))),
    });
    targets.push({
      target: `${id} less CPU per request than Fastify and Hono (µs)`,
      value: cpuVersus(id, ['fastify', 'hono']),
      status: verdict(both(cpuAhead(id, 'fastify'), cpuAhead(id, 'hono'))),
    });
  }
  if (agg.S2 && agg.S6) {
    const s2 = median(get('S2', 'ours')?.cpuUsPerReq);
    const s6 = median(get('S6', 'ours')?.cpuUsPerReq);
    const ratio = s2 === undefined || s6 === undefined ? undefined : s6 / s2;
    targets.push({
      target: 'S6 (600 routes) within +20 % of S2 (60 routes), CPU µs/request',
      value: ratio === undefined ? '–' : `${((ratio - 1) * 100).toFixed(1)} %`,
      status: verdict(ratio === undefined ? undefined : ratio <= 1.2),
    });
  }
  return targets;
}

// ---------------------------------------------------------------------------------------------------- reporting

const n0 = (v) => (v === null || v === undefined ? '–' : Math.round(v).toLocaleString('en-US'));
const n1 = (v) => (v === null || v === undefined ? '–' : v.toFixed(1));
const n2 = (v) => (v === null || v === undefined ? '–' : v.toFixed(2));

function formatRunLine(entry) {
  const t = entry.throughput;
  const l = entry.latency;
  const parts = [
    `  r${entry.round} ${entry.server.padEnd(7)} ${entry.scenario}`,
    `${n0(t.rps).padStart(7)} req/s`,
    `${n2(t.cpuUsPerReq).padStart(6)} µs/req`,
    `rss ${n0(t.rss / 1048576)} MB`,
  ];
  if (l) parts.push(`| p1 ${n0(l.rps)} req/s p50 ${l.latencyMs.p50} ms p99 ${l.latencyMs.p99} ms`);
  parts.push(`| loadgen ${n0(t.loadgenCpuPct)} % foreign ${n0(t.foreignCpuPct)} %`);
  if (t.errors + t.timeouts + t.unexpectedStatus > 0) {
    parts.push(`| errors ${t.errors} timeouts ${t.timeouts} unexpected ${JSON.stringify(t.statusCodes)}`);
  }
  return parts.join('  ');
}

function markdown(report) {
  const { meta, summary: agg, targets } = report;
  const lines = [];
  const tags = [meta.quick ? 'QUICK (smoke run, not a measurement)' : null, meta.noisy ? 'NOISY' : null].filter(
    Boolean,
  );
  lines.push('# Framework HTTP benchmark results', '');
  lines.push(
    `Generated by \`bench/run.mjs\` (framework spec, Part C §4).${tags.length ? ` **${tags.join(', ')}**` : ''}`,
    '',
  );
  lines.push(`- Date: ${meta.date}`);
  lines.push(`- Machine: ${meta.machine.cpuModel}, ${meta.machine.cores} cores, ${meta.machine.platform}`);
  lines.push(`- Node: ${meta.machine.node}`);
  lines.push(`- Command: \`${meta.command}\``);
  lines.push(
    `- Method: ${meta.options.rounds} interleaved rounds; per scenario ${meta.options.warmup} s warm-up, ` +
      `${meta.options.duration} s measured with ${meta.options.connections} connections × pipelining ${meta.options.pipelining}` +
      (meta.options.latencyDuration > 0
        ? `, then ${meta.options.latencyDuration} s with pipelining 1 for latency`
        : ', no latency run') +
      `; JWT cache ${meta.options.jwtCache || 'off'} for every server.`,
  );
  lines.push(
    `- Pinning: ${meta.pinning}. Busy check before the run: ${meta.busyPct === null ? 'n/a' : `${meta.busyPct.toFixed(1)} % non-idle`}` +
      `${meta.noisy ? ' (over 10 %: NOISY)' : ''}; median foreign CPU during measured runs: ${meta.foreignCpuPct === null ? 'n/a' : `${meta.foreignCpuPct.toFixed(1)} % of a core`}.`,
  );
  lines.push(
    `- Versions: ${Object.entries(meta.versions)
      .filter(([k]) => meta.options.servers.includes(k))
      .map(([k, v]) => `${k} = ${v}`)
      .join('; ')}`,
  );
  lines.push('');
  lines.push(
    'req/s and CPU µs/request are medians over the rounds (IQR in brackets) of the pipelined run; "% of raw" and ' +
      '"+µs vs raw" are medians of per-round ratios/differences against raw in the same round. Latency comes from the ' +
      'pipelining-1 run. CPU µs/request (server user+system CPU over the run / responses) is the primary metric when ' +
      'the load generator is saturated ("loadgen" near 100 %). "other load" is the CPU other processes used during ' +
      'the measured runs (% of one core, from /proc/stat); above ~10 % the numbers of that row are disturbed.',
  );
  lines.push('');
  lines.push('## Targets (framework spec Part C §4.5; issue 18)', '');
  if (meta.quick || meta.noisy) {
    lines.push(
      `> These verdicts come from a ${[meta.quick ? 'quick' : '', meta.noisy ? 'noisy' : ''].filter(Boolean).join(', ')} ` +
        'run and are not conclusive.',
      '',
    );
  }
  if (targets.length === 0) lines.push('No target could be evaluated (needs `ours` and `raw`).');
  else {
    lines.push('| Target | Value | Status |', '|---|---|---|');
    for (const t of targets) lines.push(`| ${t.target} | ${t.value || ''} | ${t.status} |`);
  }
  lines.push('');
  for (const id of meta.options.scenarios) {
    lines.push(`## ${id}: ${SCENARIOS[id].title}`, '');
    lines.push(
      '| Server | req/s | % of raw | CPU µs/req | +µs vs raw | p50 / p99 ms (p=1) | req/s (p=1) | RSS MB | loadgen CPU | other load | errors | rounds |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const server of meta.options.servers) {
      const s = agg[id][server];
      if (s.measuredRounds === 0) {
        lines.push(
          `| ${server} | not measured: ${(s.failures[0] ?? 'skipped').replaceAll('|', '\\|')} ||||||||||| 0 |`,
        );
        continue;
      }
      const iqr = (x, f) => (x ? `${f(x.median)} (${f(x.q1)}–${f(x.q3)})` : '–');
      const plus = s.cpuUsOverRaw ? `${s.cpuUsOverRaw.median >= 0 ? '+' : ''}${n2(s.cpuUsOverRaw.median)}` : '–';
      lines.push(
        `| ${server} | ${iqr(s.rps, n0)} | ${server === 'raw' ? '100' : n1(s.pctOfRaw?.median)} | ${iqr(s.cpuUsPerReq, n2)} | ` +
          `${server === 'raw' ? '0' : plus} | ${n2(s.latency.p50?.median)} / ${n2(s.latency.p99?.median)} | ${n0(s.latency.rps?.median)} | ` +
          `${n0(s.rssMb?.median)} | ${n0(s.loadgenCpuPct?.median)} % | ${n0(s.foreignCpuPct?.median)} % | ${s.errors + s.unexpectedStatus} | ${s.measuredRounds} |`,
      );
    }
    const notes = meta.options.servers.flatMap((server) => agg[id][server].notes.map((n) => `${server}: ${n}`));
    if (notes.length > 0) {
      lines.push('', 'Parity notes (not blocking): ' + notes.map((n) => n.replaceAll('|', '\\|')).join('; '));
    }
    lines.push('');
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------- main

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2).filter((a) => a !== '--micro'));
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }

  // Pinning: the harness (autocannon) on one core, each server on another.
  // After the re-exec this process may only run on the harness CPU, so the parent passes both CPUs down.
  const inherited = process.env[PINNED_ENV]?.split(':').map(Number);
  const cpuList = inherited ?? allowedCpus();
  const canPin =
    inherited !== undefined || (options.pin && cpuList.length >= 2 && process.platform === 'linux' && hasTaskset());
  const serverCpu = canPin ? cpuList[0] : undefined;
  const harnessCpu = canPin ? cpuList[1] : undefined;
  if (canPin && inherited === undefined) {
    reexecPinned(harnessCpu, serverCpu);
    return;
  }
  installExitHandlers();
  const pinning = canPin
    ? `servers on CPU ${serverCpu} (taskset -a -pc), harness and autocannon on CPU ${harnessCpu} (taskset -c)`
    : `none (${!options.pin ? '--no-pin' : cpuList.length < 2 ? 'fewer than 2 CPUs' : 'taskset not available'})`;

  if (options.servers.includes('ours') && !existsSync(fileURLToPath(OURS_DIST))) {
    console.warn(
      `ours skipped: ${fileURLToPath(OURS_DIST)} does not exist. Build the framework first: npm run build -w packages/framework`,
    );
    options.servers = options.servers.filter((s) => s !== 'ours');
  }
  if (options.servers.length === 0) {
    console.error('No server to run.');
    process.exit(2);
  }
  if (!options.servers.includes('raw')) console.warn('raw is not selected: no ratios or targets can be computed.');

  const machine = machineInfo();
  const versions = serverVersions();
  const variants = Object.keys(VARIANTS).filter((v) => options.scenarios.some((id) => SCENARIOS[id].variant === v));
  const perScenario = options.warmup + options.duration + options.latencyDuration + 1.5;
  const estimate =
    options.rounds * options.servers.length * (options.scenarios.length * perScenario + variants.length * 1.5);
  console.log(`Machine: ${machine.cpuModel}, ${machine.cores} cores; node ${process.version}`);
  console.log(`Pinning: ${pinning}`);
  console.log(
    `Servers: ${options.servers.join(', ')}; scenarios: ${options.scenarios.join(', ')}; rounds ${options.rounds}; ` +
      `estimated ${Math.ceil(estimate / 60)} min`,
  );

  const busy = await busyShare(options.quick ? 1000 : 2000);
  const noisyAtStart = busy !== undefined && busy > 0.1;
  if (busy === undefined) console.warn('Busy check skipped: /proc/stat is not readable.');
  else if (noisyAtStart) {
    console.warn(
      `WARNING: the machine is busy (${(busy * 100).toFixed(1)} % non-idle CPU over the last seconds); ` +
        'results will be tagged NOISY.',
    );
  } else console.log(`Busy check: ${(busy * 100).toFixed(1)} % non-idle CPU, ok.`);

  const port = await freePort();
  const runs = [];
  const startedAt = new Date();
  const log = (line) => console.log(line);
  for (let round = 1; round <= options.rounds; round++) {
    if (options.waitQuiet > 0) await waitQuiet(options.waitQuiet);
    const order = round % 2 === 1 ? options.servers : [...options.servers].reverse();
    console.log(`Round ${round}/${options.rounds}: ${order.join(' → ')}`);
    for (const name of order) {
      for (const variant of variants) {
        const scenarioIds = options.scenarios.filter((id) => SCENARIOS[id].variant === variant);
        // A server that failed its checks or crashed for this variant is not retried in later rounds.
        const previous = runs.filter((r) => r.server === name && r.variant === variant);
        const broken = scenarioIds.filter((id) => previous.some((r) => r.scenario === id && r.failed));
        const todo = scenarioIds.filter((id) => !broken.includes(id));
        for (const id of broken) {
          runs.push({ round, server: name, scenario: id, variant, failed: 'skipped: failed in an earlier round' });
        }
        if (todo.length === 0) continue;
        runs.push(...(await runSession({ name, variant, scenarioIds: todo, port, options, serverCpu, round, log })));
      }
    }
  }

  const agg = aggregate(runs, options);
  const targets = evaluateTargets(agg);
  const foreign = summary(runs.filter((r) => r.throughput).map((r) => r.throughput.foreignCpuPct));
  const noisy = noisyAtStart || (foreign !== null && foreign.median > 10);
  const report = {
    meta: {
      date: startedAt.toISOString(),
      finished: new Date().toISOString(),
      machine,
      versions,
      command: `node bench/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
      options,
      pinning,
      busyPct: busy === undefined ? null : busy * 100,
      foreignCpuPct: foreign?.median ?? null,
      noisy,
      quick: options.quick,
    },
    summary: agg,
    targets,
    runs,
  };

  const resultsDir = new URL('results/', BENCH_DIR);
  mkdirSync(resultsDir, { recursive: true });
  const file = new URL(`${startedAt.toISOString().replace(/[:.]/g, '-')}.json`, resultsDir);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nRaw results: ${fileURLToPath(file)}`);
  const md = markdown(report);
  if (options.writeMarkdown) {
    writeFileSync(new URL('RESULTS.md', BENCH_DIR), `${md}\n`);
    console.log(`Table: ${fileURLToPath(new URL('RESULTS.md', BENCH_DIR))}`);
  }
  if (options.cpuProf) console.log(`CPU profiles of the ours server: ${fileURLToPath(resultsDir)}*.cpuprofile`);
  console.log(`\n${md}`);
}

/** `--micro`: runs bench/micro.mjs with --expose-gc, pinned to one CPU when taskset is available. */
async function runMicro() {
  const args = process.argv.slice(2).filter((a) => a !== '--micro' && a !== '--no-pin');
  const node = [process.execPath, '--expose-gc', fileURLToPath(new URL('micro.mjs', BENCH_DIR)), ...args];
  const cpuList = allowedCpus();
  const pin = !process.argv.includes('--no-pin') && process.platform === 'linux' && cpuList.length >= 2 && hasTaskset();
  const [command, ...rest] = pin ? ['taskset', '-c', String(cpuList[1]), ...node] : node;
  const child = spawn(command, rest, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
}

if (process.argv.includes('--micro')) await runMicro();
else await main();
