// Micro-benchmark of request-body validation: median µs per validateInsert of a full studentSchoolAssociation and a full
// studentAssessment, with JSON.parse of the same body as the in-run baseline. Run: `npx tsx packages/server/bench/validation.ts`.
import { cpus } from 'node:os';
import { getModelRegistry } from '../src/model/index.js';
import { validatorFor } from '../src/model/validation/index.js';
import { fullDocument } from '../src/testing/index.js';

const WARM_UP_ITERATIONS = 20_000;
const BATCHES = 301;
const BATCH_SIZE = 200;

function medianMicroseconds(operation: () => unknown): number {
  for (let iteration = 0; iteration < WARM_UP_ITERATIONS; iteration++) operation();
  const perOperation: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const start = process.hrtime.bigint();
    for (let iteration = 0; iteration < BATCH_SIZE; iteration++) operation();
    perOperation.push(Number(process.hrtime.bigint() - start) / 1000 / BATCH_SIZE);
  }
  perOperation.sort((a, b) => a - b);
  return perOperation[Math.floor(perOperation.length / 2)] ?? NaN;
}

const registry = getModelRegistry();
const rows: string[][] = [];
for (const endpoint of ['studentSchoolAssociations', 'studentAssessments']) {
  const resource = registry.getResource('ed-fi', endpoint);
  if (!resource) throw new Error(`No resource ${endpoint}`);
  const compileStart = process.hrtime.bigint();
  const validator = validatorFor(resource);
  const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
  const document = fullDocument(resource);
  const body = JSON.stringify(document);
  if (!validator.validateInsert(document).ok) throw new Error(`The generated ${endpoint} document does not validate`);
  const validate = medianMicroseconds(() => validator.validateInsert(document));
  const parse = medianMicroseconds(() => JSON.parse(body));
  rows.push([
    endpoint,
    String(body.length),
    compileMs.toFixed(1),
    validate.toFixed(2),
    parse.toFixed(2),
    (validate / parse).toFixed(2),
  ]);
}

console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${new Date().toISOString()}`);
console.log(
  '| resource (full document) | body bytes | first-use compile ms | validateInsert µs (median) | JSON.parse µs (median) | ratio |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
