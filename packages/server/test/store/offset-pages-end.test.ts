// A whole selection read page by page ends with a page past its end when its size is a multiple of the page size.
// That page seeks from where the page before it ended and finds nothing: the store probes the seek's checks and returns
// the empty page, instead of reading it again by plain offset (every row) and then with the change-version window as a
// filter (every row of the window, sorted). Seen in the rows the statements skip by OFFSET, recorded as they run.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createStore } from '../../src/store/index.js';
import type { ListQuery, SnapshotReads, Store } from '../../src/store/store.js';
import { describeEachStore, type StoreUnderTest } from '../support/each-store.js';
import { documentWrite } from './document-writes.js';
import { resources, seedSampleDescriptors, student } from './sample-documents.js';

const LIMIT = 8;
const STUDENTS = 6 * LIMIT;

/** The OFFSET a statement ran with, when it is a page read (its text ends with the limit and offset). */
type OffsetOf = (call: { readonly text: string; readonly values: readonly unknown[] }) => number;

const sqliteOffset: OffsetOf = ({ text, values }) => (/OFFSET \?$/.test(text) ? Number(values.at(-1)) : 0);

const postgresOffset: OffsetOf = ({ text, values }) => {
  const slot = /OFFSET \$(\d+)$/.exec(text)?.[1];
  return slot === undefined ? 0 : Number(values[Number(slot) - 1]);
};

/** Spies where the store's driver runs statements: the rows skipped by OFFSET so far, when asked. */
function recordSkippedRows(name: StoreUnderTest['name']): () => number {
  if (name === 'SQLite') {
    const probe = new Database(':memory:');
    const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Database.Statement;
    probe.close();
    const all = vi.spyOn(statementPrototype, 'all');
    return () =>
      all.mock.calls.reduce(
        (skipped, values, call) =>
          skipped + sqliteOffset({ text: (all.mock.contexts[call] as Database.Statement).source, values }),
        0,
      );
  }
  const query = vi.spyOn(pg.Client.prototype, 'query');
  return () =>
    query.mock.calls.reduce((skipped, [textOrConfig]: readonly unknown[]) => {
      // The store runs its statements as configs; a snapshot's set-up sends bare texts.
      if (typeof textOrConfig === 'string') return skipped;
      const { text, values = [] } = textOrConfig as pg.QueryConfig;
      return skipped + postgresOffset({ text, values });
    }, 0);
}

describeEachStore('the page past the end of a full read', (stores) => {
  let store: Store;

  beforeAll(async () => {
    store = createStore(await stores.newSpec());
    await store.migrate();
    await store.open();
    await seedSampleDescriptors(store);
    for (let index = 0; index < STUDENTS; index++)
      await store.upsert(documentWrite(resources.students, student(`end-${index}`)));
  });
  afterAll(() => store.close());
  afterEach(() => vi.restoreAllMocks());

  /** Reads every page, then the one past the end: the rows its statements skipped by OFFSET. */
  async function skippedPastTheEnd(reads: SnapshotReads | Store, window: boolean): Promise<number> {
    const newest = await reads.newestChangeVersion();
    const query = (offset: number): ListQuery => ({
      filters: [],
      offset,
      limit: LIMIT,
      totalCount: false,
      ...(window ? { changeVersions: { min: 0, max: newest } } : {}),
    });
    for (let offset = 0; offset < STUDENTS; offset += LIMIT)
      expect((await reads.list(resources.students, query(offset))).items).toHaveLength(LIMIT);
    const skipped = recordSkippedRows(stores.name);
    expect((await reads.list(resources.students, query(STUDENTS))).items).toEqual([]);
    return skipped();
  }

  for (const window of [true, false])
    it(`skips no rows ${window ? 'of a change feed' : 'of a list'}, live and in a snapshot`, async () => {
      expect(await skippedPastTheEnd(store, window)).toBe(0);
      vi.restoreAllMocks();
      const snapshot = (await store.snapshot(`end-${window}`))!;
      expect(await skippedPastTheEnd(snapshot, window)).toBe(0);
    });
});
