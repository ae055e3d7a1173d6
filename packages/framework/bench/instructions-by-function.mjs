#!/usr/bin/env node
// Self instructions per request by function, from a dump kept by `bench/instructions.mjs --keep DIR`:
// `node bench/instructions-by-function.mjs DIR/<server>-<scenario> [requests=5000] [rows=40]`.
//
// Callgrind names JIT-compiled JavaScript only by address; the V8 perf map kept next to the dump
// (`--perf-basic-prof`) turns those addresses back into function names and source positions.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, requestsArg = '5000', rowsArg = '40'] = process.argv.slice(2);
if (dir === undefined) {
  console.error('Usage: node bench/instructions-by-function.mjs <kept dump dir> [requests] [rows]');
  process.exit(2);
}

/** Sorted `{ start, end, name }` of the code objects V8 created. */
function readPerfMap(file) {
  const entries = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match === null) continue;
    const start = parseInt(match[1], 16);
    entries.push({ start, end: start + parseInt(match[2], 16), name: match[3] });
  }
  return entries.sort((a, b) => a.start - b.start);
}

function nameAt(entries, address) {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const entry = entries[middle];
    if (address < entry.start) high = middle - 1;
    else if (address >= entry.end) low = middle + 1;
    else return entry.name;
  }
  return undefined;
}

/** Self Ir by function name of a callgrind dump (name compression, `calls=` lines carry callee costs, not self). */
function selfCosts(file) {
  const names = new Map();
  const costs = new Map();
  const define = (spec) => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(spec);
    if (match === null) return spec;
    if (match[2] !== undefined) names.set(match[1], match[2]);
    return names.get(match[1]);
  };
  let current = '';
  let skipNext = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) current = define(line.slice(3));
    else if (line.startsWith('cfn=')) define(line.slice(4));
    else if (line.startsWith('calls=')) skipNext = true;
    else if (/^[0-9+*-]/.test(line)) {
      if (skipNext) skipNext = false;
      else costs.set(current, (costs.get(current) ?? 0) + Number(line.split(' ')[1] ?? 0));
    }
  }
  return costs;
}

// The main thread's part of the measured window (see dumpedInstructions in instructions.mjs).
const dump = readdirSync(dir).find((name) => name.endsWith('.1-01'));
if (dump === undefined) {
  console.error(`${dir} holds no callgrind dump of a measured window (callgrind.out.<pid>.1-01)`);
  process.exit(1);
}
const perfMap = readPerfMap(join(dir, 'perf.map'));
const byName = new Map();
let total = 0;
for (const [fn, cost] of selfCosts(join(dir, dump))) {
  const address = /^0x([0-9a-f]+)$/i.exec(fn);
  const name = (address === null ? fn : nameAt(perfMap, parseInt(address[1], 16))) ?? `${fn} (unknown JIT code)`;
  byName.set(name, (byName.get(name) ?? 0) + cost);
  total += cost;
}
const requests = Number(requestsArg);
console.log(`total ${Math.round(total / requests)} instructions/request`);
for (const [name, cost] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, Number(rowsArg))) {
  console.log(`${String(Math.round(cost / requests)).padStart(8)}  ${name}`);
}
