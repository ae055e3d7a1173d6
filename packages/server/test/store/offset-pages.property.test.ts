// Property: however page reads at any offsets interleave with inserts, updates (moving documents into and out of
// change-version windows and filters), deletes and key changes, every page the store returns is the slice that plain
// offset paging over the same state returns: the positions the store remembers to seek from never show through, nor
// does the probe that finds a page past the selection's end. Live reads and a snapshot's share those positions.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AccessFilter, ListQuery, SnapshotReads, Store, StoredDocument } from '../../src/store/store.js';
import { createStore } from '../../src/store/index.js';
import { describeEachStore } from '../support/each-store.js';
import { documentWrite } from './document-writes.js';
import { classPeriod, resources, school, schoolYearType, seedSampleDescriptors } from './sample-documents.js';

const SCHOOLS = [700, 701] as const;
const INITIAL_PERIODS = 24;

/** Class periods of the first school, through its ed-org relationship (a predicate that reads the closure). */
const FIRST_SCHOOL: AccessFilter = {
  educationOrganizationIds: [SCHOOLS[0]],
  relationships: [{ educationOrganizations: 'descendants', students: 'none', staffs: false, contacts: false }],
};

type WindowChoice = 'none' | 'toNewest' | 'fromMiddle' | 'toMiddle';

interface Selection {
  readonly window: WindowChoice;
  readonly official: boolean;
  readonly access: boolean;
}

type Operation =
  | { readonly kind: 'insert'; readonly school: 0 | 1; readonly official: boolean }
  | { readonly kind: 'update'; readonly pick: number; readonly official: boolean }
  | { readonly kind: 'rename'; readonly pick: number }
  | { readonly kind: 'delete'; readonly pick: number }
  | { readonly kind: 'snapshot' }
  | {
      readonly kind: 'read';
      readonly selection: number;
      readonly continues: boolean;
      readonly offset: number;
      readonly limit: number;
      readonly inSnapshot: boolean;
    }
  | {
      readonly kind: 'readPastEnd';
      readonly selection: number;
      readonly limit: number;
      readonly inSnapshot: boolean;
    };

const SELECTIONS: readonly Selection[] = (['none', 'toNewest', 'fromMiddle', 'toMiddle'] as const).flatMap((window) =>
  [false, true].flatMap((official) => [false, true].map((access) => ({ window, official, access }))),
);

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    school: fc.constantFrom(0 as const, 1 as const),
    official: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), official: fc.boolean() }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.constant({ kind: 'snapshot' as const }),
  ...Array.from({ length: 4 }, () =>
    fc.record({
      kind: fc.constant('read' as const),
      selection: fc.nat(SELECTIONS.length - 1),
      continues: fc.boolean(),
      offset: fc.nat(30),
      limit: fc.integer({ min: 1, max: 6 }),
      inSnapshot: fc.boolean(),
    }),
  ),
  fc.record({
    kind: fc.constant('readPastEnd' as const),
    selection: fc.nat(SELECTIONS.length - 1),
    limit: fc.integer({ min: 1, max: 12 }),
    inSnapshot: fc.boolean(),
  }),
);

const selectionIndex = (window: WindowChoice): number =>
  SELECTIONS.findIndex((selection) => selection.window === window && !selection.official && !selection.access);

/**
 * Rare among random operations, so always run: a window that does not hold every row (its guard fails) read past a
 * position that a plain list left. Its seek comes back empty, and the page is not past the end.
 */
const GUARD_FAILS_PAST_A_POSITION: Operation[] = [
  { kind: 'read', selection: selectionIndex('none'), continues: false, offset: 0, limit: 1, inSnapshot: false },
  { kind: 'read', selection: selectionIndex('fromMiddle'), continues: false, offset: 2, limit: 1, inSnapshot: false },
];

interface Body {
  readonly classPeriodName: string;
  readonly schoolReference: { readonly schoolId: number };
  readonly officialAttendancePeriod: boolean;
}

describeEachStore('pages at any offset', (stores) => {
  let store: Store;
  let named = 0;

  const periodOf = (schoolIndex: 0 | 1, official: boolean): Body => ({
    ...(classPeriod(`P-${++named}`, SCHOOLS[schoolIndex]) as Omit<Body, 'officialAttendancePeriod'>),
    officialAttendancePeriod: official,
  });

  beforeAll(async () => {
    store = createStore(await stores.newSpec());
    await store.migrate();
    await store.open();
    await seedSampleDescriptors(store);
    await store.upsert(documentWrite(resources.schoolYearTypes, schoolYearType(2022)));
    for (const schoolId of SCHOOLS) await store.upsert(documentWrite(resources.schools, school(schoolId)));
    for (let index = 0; index < INITIAL_PERIODS; index++)
      await store.upsert(documentWrite(resources.classPeriods, { ...periodOf((index % 2) as 0 | 1, index % 3 === 0) }));
  });
  afterAll(() => store.close());

  /** Every class period in doc_id order, read whole from offset 0 (no position can come before it). */
  async function everything(reads: SnapshotReads | Store): Promise<StoredDocument[]> {
    return [
      ...(await reads.list(resources.classPeriods, { filters: [], offset: 0, limit: 100_000, totalCount: false }))
        .items,
    ];
  }

  function queryOf(selection: Selection, newest: number, offset: number, limit: number): ListQuery {
    const middle = Math.floor(newest / 2);
    const changeVersions = {
      none: undefined,
      toNewest: { min: 0, max: newest },
      fromMiddle: { min: middle },
      toMiddle: { min: 0, max: middle },
    }[selection.window];
    return {
      filters: selection.official ? [{ field: 'officialAttendancePeriod', value: true }] : [],
      offset,
      limit,
      totalCount: false,
      ...(changeVersions === undefined ? {} : { changeVersions }),
      ...(selection.access ? { access: FIRST_SCHOOL } : {}),
    };
  }

  /** What plain offset paging returns: the matching documents of `all`, sliced. */
  function expectedPage(all: readonly StoredDocument[], query: ListQuery): string[] {
    const { min = -Infinity, max = Infinity } = query.changeVersions ?? {};
    return all
      .filter((document) => {
        const body = JSON.parse(document.bodyJson) as Body;
        return (
          document.changeVersion >= min &&
          document.changeVersion <= max &&
          (query.filters.length === 0 || body.officialAttendancePeriod) &&
          (query.access === undefined || body.schoolReference.schoolId === SCHOOLS[0])
        );
      })
      .slice(query.offset, query.offset + query.limit)
      .map((document) => document.id);
  }

  async function pick(index: number): Promise<{ id: string; body: Body } | undefined> {
    const all = await everything(store);
    const document = all[index % Math.max(all.length, 1)];
    return document && { id: document.id, body: JSON.parse(document.bodyJson) as Body };
  }

  it('returns the plain offset page whatever was read and written before', async () => {
    let session = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (operations) => {
        let snapshot = (await store.snapshot(`pages-${++session}`))!;
        const nextOffsets = new Map<string, number>();
        for (const step of operations) {
          if (step.kind === 'insert') {
            await store.upsert(documentWrite(resources.classPeriods, { ...periodOf(step.school, step.official) }));
          } else if (step.kind === 'update' || step.kind === 'rename') {
            const picked = await pick(step.pick);
            if (picked === undefined) continue;
            const body =
              step.kind === 'update'
                ? { ...picked.body, officialAttendancePeriod: step.official }
                : { ...picked.body, classPeriodName: `P-${++named}` };
            await store.update(picked.id, documentWrite(resources.classPeriods, { ...body }));
          } else if (step.kind === 'delete') {
            const picked = await pick(step.pick);
            if (picked !== undefined) await store.delete(resources.classPeriods, picked.id);
          } else if (step.kind === 'snapshot') {
            snapshot = (await store.snapshot(`pages-${session}`, { fresh: true }))!;
          } else {
            const reads = step.inSnapshot ? snapshot : store;
            const readsKey = `${step.inSnapshot}|${step.selection}`;
            const readPage = async (offset: number): Promise<number> => {
              const query = queryOf(SELECTIONS[step.selection]!, await reads.newestChangeVersion(), offset, step.limit);
              const page = await reads.list(resources.classPeriods, query);
              expect(page.items.map((item) => item.id)).toEqual(expectedPage(await everything(reads), query));
              nextOffsets.set(readsKey, offset + step.limit);
              return page.items.length;
            };
            if (step.kind === 'read') await readPage(step.continues ? (nextOffsets.get(readsKey) ?? 0) : step.offset);
            // Onwards to the first page past the end, which seeks from the position the page before it left.
            else for (let offset = nextOffsets.get(readsKey) ?? 0; (await readPage(offset)) > 0; offset += step.limit);
          }
        }
      }),
      { numRuns: 40, examples: [[GUARD_FAILS_PAST_A_POSITION]] },
    );
  }, 300_000);
});
