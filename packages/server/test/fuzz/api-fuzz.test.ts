// The fuzzing of api-fuzz.ts with a bounded, seeded budget: about 5 s in `npm test`. `npm run fuzz` widens it
// (FUZZ_RUNS) with a new seed each time (FUZZ_SEED=random); a failure prints the seed and path that replay it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { checkRequest, operationsOf, requestArbitrary, type Operation } from './api-fuzz.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 1414);

let app: EdFiTestServer;
let operations: Operation[];

beforeAll(async () => {
  app = await startEdFiServer();
  operations = await operationsOf(app);
});
afterAll(() => app.close());

describe('fuzzing every operation of both OpenAPI documents', () => {
  it('finds operations in both documents', () => {
    const methods = new Set(operations.map((operation) => operation.method));
    expect([...methods].sort()).toEqual(['DELETE', 'GET', 'POST', 'PUT']);
    expect(operations.some((operation) => operation.path.endsWith('Descriptors'))).toBe(true);
    expect(operations.some((operation) => operation.path === '/ed-fi/students')).toBe(true);
  });

  it(
    `answers no 5xx, problem bodies for every 4xx, and writes nothing it refuses (${RUNS} requests, seed ${SEED})`,
    { timeout: Math.max(60_000, RUNS * 20) },
    async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operations), async (request) => {
          const status = await checkRequest(app, request);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (process.env.FUZZ_REPORT) console.log(Object.fromEntries(statuses));
      // The generator reaches past validation too, not only into 400s.
      expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    },
  );
});
