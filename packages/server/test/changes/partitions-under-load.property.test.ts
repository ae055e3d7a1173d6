// Property: while writers insert and delete, a reader that pages every partition in parallel returns each item that
// existed for the whole read exactly once, and nothing twice.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { student } from '../store/sample-documents.js';
import { idOf } from './support.js';

const INITIAL_STUDENTS = 120;

/** Lets the other request chains run between two requests. */
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));

interface Load {
  readonly partitions: number;
  readonly pageSize: number;
  /** Per writer step: true inserts, false deletes the item at that position (of those there at the start). */
  readonly writes: readonly { readonly insert: boolean; readonly position: number }[];
}

const loads: fc.Arbitrary<Load> = fc.record({
  partitions: fc.integer({ min: 1, max: 12 }),
  pageSize: fc.integer({ min: 1, max: 40 }),
  writes: fc.array(fc.record({ insert: fc.boolean(), position: fc.nat() }), { minLength: 1, maxLength: 40 }),
});

describeEachStore('partitions under load', (stores) => {
  let app: EdFiTestServer;
  let created = 0;

  async function addStudent(): Promise<string> {
    created += 1;
    return idOf(await app.data('POST', '/ed-fi/students', { body: student(`load-${created}`) }));
  }

  beforeAll(async () => {
    app = await startEdFiServer({ store: await stores.newSpec(), seed: false });
    for (let index = 0; index < INITIAL_STUDENTS; index++) await addStudent();
  });
  afterAll(() => app.close());

  async function allIds(): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = (await app.data('GET', `/ed-fi/students?limit=500&offset=${offset}`)).json<{ id: string }[]>();
      ids.push(...page.map((item) => item.id));
      if (page.length < 500) return ids;
    }
  }

  async function readPartition(token: string, pageSize: number): Promise<string[]> {
    const ids: string[] = [];
    for (let next: string | undefined = token; next !== undefined;) {
      const response = await app.data('GET', `/ed-fi/students?pageToken=${next}&pageSize=${pageSize}`);
      expect(response.status, response.body).toBe(200);
      ids.push(...response.json<{ id: string }[]>().map((item) => item.id));
      next = response.headers['next-page-token'];
      await yieldTurn();
    }
    return ids;
  }

  it('return every item that existed throughout the read exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(loads, async (load) => {
        const before = await allIds();
        const deleted = new Set<string>();
        const writer = async () => {
          for (const write of load.writes) {
            if (write.insert) await addStudent();
            else {
              const victim = before[write.position % before.length]!;
              if (!deleted.has(victim)) await app.data('DELETE', `/ed-fi/students/${victim}`);
              deleted.add(victim);
            }
            await yieldTurn();
          }
        };
        const reader = async () => {
          const response = await app.data(
            'GET',
            `/ed-fi/students/partitions?number=${load.partitions}&allowSmallPartitions=true`,
          );
          const { pageTokens } = response.json<{ pageTokens: string[] }>();
          expect(pageTokens.length).toBeLessThanOrEqual(load.partitions);
          return (await Promise.all(pageTokens.map((token) => readPartition(token, load.pageSize)))).flat();
        };
        const [read] = await Promise.all([reader(), writer()]);
        expect(new Set(read).size).toBe(read.length);
        const returned = new Set(read);
        const throughout = before.filter((id) => !deleted.has(id));
        expect(throughout.filter((id) => !returned.has(id))).toEqual([]);
        // Whatever else came back was there before (and deleted during the read) or inserted during it.
        const known = new Set([...before, ...(await allIds())]);
        expect(read.filter((id) => !known.has(id))).toEqual([]);
        // Keep the collection from draining across runs.
        while ((await allIds()).length < INITIAL_STUDENTS) await addStudent();
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
