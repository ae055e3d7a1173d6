// PostgreSQL hands out doc ids in the order transactions ask for them, not in commit order: a transaction that took a
// lower doc id and commits late puts a document before positions remembered from pages read in the meantime. Pages
// read after its commit, at offsets past those positions, must include it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import type { ListQuery, Store } from '../../src/store/store.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withStoreConnection } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import { classPeriod, resources, school, schoolYearType, seedSampleDescriptors } from './sample-documents.js';

const LATE_SCHOOL = 800;
const OTHER_SCHOOL = 801;
const PAGE = 3;

describePostgres('PostgreSQL pages at deep offsets', () => {
  const schema = schemasDroppedAfterAll()('pages');
  let store: Store;

  beforeAll(async () => {
    store = createStore(postgresSpec(schema));
    await store.migrate();
    await store.open();
    await seedSampleDescriptors(store);
    await store.upsert(documentWrite(resources.schoolYearTypes, schoolYearType(2022)));
    for (const schoolId of [LATE_SCHOOL, OTHER_SCHOOL])
      await store.upsert(documentWrite(resources.schools, school(schoolId)));
    for (let index = 0; index < 6; index++)
      await store.upsert(documentWrite(resources.classPeriods, classPeriod(`Early-${index}`, OTHER_SCHOOL)));
  }, 60_000);
  afterAll(() => store.close());

  const queries = async (offset: number): Promise<ListQuery[]> => {
    const page = { filters: [], offset, limit: PAGE, totalCount: false };
    return [page, { ...page, changeVersions: { min: 0, max: await store.newestChangeVersion() } }];
  };

  /** Every page of each query, the deepest first, so that each seeks from a position remembered before. */
  async function pagesDeepestFirst(count: number): Promise<string[][]> {
    const offsets = Array.from({ length: Math.ceil(count / PAGE) }, (_, page) => page * PAGE).reverse();
    const perQuery: string[][] = [[], []];
    for (const offset of offsets) {
      const pages = await Promise.all(
        (await queries(offset)).map((query) => store.list(resources.classPeriods, query)),
      );
      pages.forEach((page, index) => perQuery[index]!.unshift(...page.items.map((item) => item.id)));
    }
    return perQuery;
  }

  /** The pages of each query that hold some of the `count` documents, in order: positions remembered at each. */
  async function pagesInOrder(count: number): Promise<void> {
    for (let offset = 0; offset < count; offset += PAGE)
      for (const query of await queries(offset)) await store.list(resources.classPeriods, query);
  }

  it('includes a document committed late under a lower doc id than documents read before', async () => {
    const schoolDocument = (
      await store.list(resources.schools, {
        filters: [{ field: 'schoolId', value: LATE_SCHOOL }],
        offset: 0,
        limit: 1,
        totalCount: false,
      })
    ).items[0]!;
    await withStoreConnection(postgresSpec(schema), async (client) => {
      await client.query('BEGIN');
      // The late write's reference edge waits on this lock, after its statement took its doc id.
      await client.query('SELECT 1 FROM document WHERE doc_id = $1 FOR UPDATE', [schoolDocument.docId]);
      const late = store.upsert(documentWrite(resources.classPeriods, classPeriod('Late', LATE_SCHOOL)));
      for (let waited = 0; (await client.query('SELECT 1 FROM pg_locks WHERE NOT granted')).rowCount === 0; waited++) {
        if (waited > 200) throw new Error('The late write never waited');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      for (let index = 0; index < 6; index++)
        await store.upsert(documentWrite(resources.classPeriods, classPeriod(`After-${index}`, OTHER_SCHOOL)));
      await pagesInOrder(12);
      await client.query('COMMIT');
      const lateId = (await late).id;

      const all = await store.list(resources.classPeriods, { filters: [], offset: 0, limit: 100, totalCount: false });
      const lateDocument = all.items.find((item) => item.id === lateId)!;
      expect(all.items.at(-1)!.docId).toBeGreaterThan(lateDocument.docId);
      const ids = all.items.map((item) => item.id);
      for (const read of await pagesDeepestFirst(ids.length)) expect(read).toEqual(ids);
    });
  }, 60_000);
});
