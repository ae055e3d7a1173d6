#!/usr/bin/env node
// Instructions per request of a benchmark server, counted by valgrind (callgrind): deterministic enough to compare
// changes on a loaded machine, where req/s and CPU time are not. Usage: `node bench/instructions.mjs --help`.
//
// The server runs under `valgrind --tool=callgrind --instr-atstart=no`; this process loads it over loopback with
// pipelined keep-alive requests (a fixed batch per connection, one write per batch). After the warm-up, counting is
// switched on with `callgrind_control -i on`, the measured requests are sent, and a dump gives the instructions (Ir)
// of that window only, so start-up, JIT warm-up and shutdown are left out. Every response's status is checked.

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Buffer } from 'node:buffer';
import { freePort } from './free-port.mjs';
import { SCENARIOS, SCENARIO_IDS, VARIANTS } from './scenarios.mjs';

const SERVER_NAMES = ['raw', 'ours', 'fastify', 'hono'];

const USAGE = `Usage: node bench/instructions.mjs [options]

  --servers LIST      comma list of ${SERVER_NAMES.join(',')} (default raw,ours,fastify)
  --scenarios LIST    comma list of ${SCENARIO_IDS.join(',')} (default all)
  --requests N        measured requests per scenario (default 5000)
  --warmup N          requests before counting starts (default 20000)
  --connections N     keep-alive connections (default 10)
  --pipelining N      requests written per batch on each connection (default 10)
  --keep DIR          keep the callgrind dumps in DIR, with the V8 perf map of the server (--perf-basic-prof) that
                      names its JavaScript functions: see bench/instructions-by-function.mjs
  --help`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      servers: { type: 'string', default: 'raw,ours,fastify' },
      scenarios: { type: 'string', default: SCENARIO_IDS.join(',') },
      requests: { type: 'string', default: '5000' },
      warmup: { type: 'string', default: '20000' },
      connections: { type: 'string', default: '10' },
      pipelining: { type: 'string', default: '10' },
      keep: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const list = (text, known) => {
    const items = text.split(',').filter(Boolean);
    const unknown = items.filter((item) => !known.includes(item));
    if (unknown.length > 0) throw new Error(`unknown: ${unknown.join(', ')}`);
    return items;
  };
  const count = (name) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  return {
    servers: list(values.servers, SERVER_NAMES),
    scenarios: list(values.scenarios, SCENARIO_IDS),
    requests: count('requests'),
    warmup: count('warmup'),
    connections: count('connections'),
    pipelining: count('pipelining'),
    keep: values.keep,
  };
}

/** The bytes of one HTTP/1.1 keep-alive request of a scenario. */
function requestBytes({ method, path, headers = {}, body }) {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
}

/**
 * Reads responses off a socket: resolves `expect(count)` once `count` complete responses have arrived; rejects on a
 * status other than `status` or on a response without content-length (every benchmark response has one).
 */
class ResponseCounter {
  #pending = Buffer.alloc(0);
  #received = 0;
  #waiting;

  constructor(socket, status) {
    socket.on('data', (chunk) => {
      this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
      try {
        this.#consume(status);
      } catch (error) {
        this.#waiting?.reject(error);
      }
    });
    socket.on('error', (error) => this.#waiting?.reject(error));
    socket.on('close', () => this.#waiting?.reject(Object.assign(new Error('connection closed'), { code: 'CLOSED' })));
  }

  expect(count) {
    return new Promise((resolve, reject) => {
      this.#waiting = { count, resolve, reject };
      this.#settle();
    });
  }

  #consume(status) {
    for (;;) {
      const headEnd = this.#pending.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const head = this.#pending.toString('latin1', 0, headEnd);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (length === null) throw new Error(`response without content-length: ${head}`);
      const end = headEnd + 4 + Number(length[1]);
      if (this.#pending.length < end) return;
      const got = Number(head.slice(9, 12));
      if (got !== status)
        throw new Error(`status ${got}, expected ${status}: ${this.#pending.toString('utf8', 0, end)}`);
      this.#pending = this.#pending.subarray(end);
      this.#received++;
      this.#settle();
    }
  }

  #settle() {
    if (this.#waiting !== undefined && this.#received >= this.#waiting.count) {
      const { resolve } = this.#waiting;
      this.#waiting = undefined;
      this.#received = 0;
      resolve();
    }
  }
}

async function openConnection(port, status) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.setNoDelay(true);
  return { port, status, socket, counter: new ResponseCounter(socket, status) };
}

async function openConnections(port, count, status) {
  const connections = [];
  for (let i = 0; i < count; i++) connections.push(await openConnection(port, status));
  return connections;
}

/** A server under valgrind can stall past its keep-alive timeout and close a connection; its batch is sent again. */
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'CLOSED']);

/** Sends `total` requests spread over the connections, `pipelining` per batch, one batch in flight per connection. */
async function load(connections, request, total, pipelining) {
  const batch = Buffer.concat(Array.from({ length: pipelining }, () => request));
  let remaining = total;
  await Promise.all(
    connections.map(async (connection, index) => {
      while (remaining > 0) {
        const n = Math.min(pipelining, remaining);
        remaining -= n;
        const { socket, counter } = connections[index];
        socket.write(n === pipelining ? batch : Buffer.concat(Array.from({ length: n }, () => request)));
        try {
          await counter.expect(n);
        } catch (error) {
          if (!CONNECTION_LOST.has(error.code)) throw error;
          socket.destroy();
          remaining += n;
          connections[index] = await openConnection(connection.port, connection.status);
        }
      }
    }),
  );
}

function callgrindControl(pid, ...args) {
  const result = spawnSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`callgrind_control ${args.join(' ')}: ${result.stderr || result.stdout}`);
}

/**
 * Ir of the measured window, of the main thread and of all threads. With --separate-threads callgrind writes the first
 * requested dump as `<out-file>.1-<thread>` (the one at exit has no `.1`); thread 01 is the main thread, the others
 * are V8's helpers (its optimising compiler, whose late work makes the all-threads total vary) and libuv's pool.
 */
function dumpedInstructions(dir) {
  const files = readdirSync(dir).filter((name) => /\.1-\d+$/.test(name));
  if (files.length === 0) throw new Error(`no callgrind dump in ${dir}`);
  let main = 0;
  let all = 0;
  for (const file of files) {
    const match = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (match === null) throw new Error(`no instruction total in ${file}`);
    all += Number(match[1]);
    if (file.endsWith('.1-01')) main = Number(match[1]);
  }
  return { main, all };
}

async function waitForPort(port, child) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const open = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(200);
  }
  throw new Error('server did not start listening within 120 s');
}

/**
 * Counting is switched on after an idle pause of seconds (callgrind_control is slow on a loaded machine); V8 would use
 * it to shrink the heap and flush code it then compiles again inside the window. Same flags for every server.
 */
const STEADY_V8_FLAGS = ['--no-memory-reducer', '--no-flush-bytecode', '--no-flush-baseline-code'];

/** Instructions per request of one server in one scenario. */
async function measure(server, scenarioId, options) {
  const scenario = SCENARIOS[scenarioId];
  const port = await freePort();
  const dir =
    options.keep === undefined
      ? mkdtempSync(join(tmpdir(), 'callgrind-'))
      : join(options.keep, `${server}-${scenarioId}`);
  mkdirSync(dir, { recursive: true });
  const script = fileURLToPath(new URL(`./servers/${server}.mjs`, import.meta.url));
  const nodeArgs = [...STEADY_V8_FLAGS, ...(options.keep === undefined ? [] : ['--perf-basic-prof']), script];
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`,
      'node',
      ...nodeArgs,
    ],
    { env: { ...process.env, ...VARIANTS[scenario.variant], PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    await waitForPort(port, child);
    const request = requestBytes(scenario.request);
    const warming = await openConnections(port, options.connections, scenario.status);
    await load(warming, request, options.warmup, options.pipelining);
    for (const { socket } of warming) socket.destroy();
    callgrindControl(child.pid, '-z');
    callgrindControl(child.pid, '-i', 'on');
    // New connections: switching counting on can take longer than a server's keep-alive timeout (5 s for node:http).
    const measured = await openConnections(port, options.connections, scenario.status);
    await load(measured, request, options.requests, options.pipelining);
    callgrindControl(child.pid, '-d');
    for (const { socket } of measured) socket.destroy();
  } catch (error) {
    throw new Error(`${server} ${scenarioId}: ${error.message}\n${stderr.slice(-2000)}`);
  } finally {
    child.kill('SIGINT');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  }
  const instructions = dumpedInstructions(dir);
  if (options.keep === undefined) rmSync(dir, { recursive: true, force: true });
  else renameSync(`/tmp/perf-${child.pid}.map`, join(dir, 'perf.map'));
  return { main: instructions.main / options.requests, all: instructions.all / options.requests };
}

const options = parseOptions(process.argv.slice(2));
console.log('Instructions per request: main thread (all threads)');
console.log(`| Scenario | ${options.servers.join(' | ')} |`);
console.log(`|---|${options.servers.map(() => '--:').join('|')}|`);
for (const scenarioId of options.scenarios) {
  const row = [];
  for (const server of options.servers) {
    const { main, all } = await measure(server, scenarioId, options);
    row.push(`${Math.round(main).toLocaleString('en')} (${Math.round(all).toLocaleString('en')})`);
  }
  console.log(`| ${scenarioId} | ${row.join(' | ')} |`);
}
