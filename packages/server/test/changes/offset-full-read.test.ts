// A whole collection read page by page with limit and offset, through HTTP: as a change feed up to the newest version
// and as a plain list, each item comes back exactly once, in the same order, while other resources are written between
// the pages and after a read of the same pages has left its positions behind (the store seeks from them).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { school, student } from '../store/sample-documents.js';
import { idOf } from './support.js';

const STUDENTS = 23;
const LIMIT = 4;

describeEachStore('a full read by offset', (stores) => {
  let app: EdFiTestServer;
  const ids: string[] = [];
  let schools = 0;

  beforeAll(async () => {
    app = await startEdFiServer({ store: await stores.newSpec() });
    for (let index = 0; index < STUDENTS; index++)
      ids.push(idOf(await app.data('POST', '/ed-fi/students', { body: student(`full-${index}`) })));
  });
  afterAll(() => app.close());

  async function readByOffset(query: string): Promise<string[]> {
    const seen: string[] = [];
    for (let offset = 0; ; offset += LIMIT) {
      const response = await app.data('GET', `/ed-fi/students?${query}limit=${LIMIT}&offset=${offset}`);
      expect(response.status, response.body).toBe(200);
      const page = response.json<{ id: string }[]>();
      seen.push(...page.map((item) => item.id));
      const other = await app.data('POST', '/ed-fi/schools', { body: school(900 + ++schools) });
      expect(other.status, other.body).toBe(201);
      if (page.length < LIMIT) return seen;
    }
  }

  it('returns every item once, as a change feed and as a list, read once and again', async () => {
    const newest = await app.store.newestChangeVersion();
    for (const query of [`minChangeVersion=0&maxChangeVersion=${newest}&`, '']) {
      for (let read = 0; read < 2; read++) expect(await readByOffset(query)).toEqual(ids);
    }
  });
});
