// The PostgreSQL store's look-ups of several documents at once (reads by natural key or API id asked in one turn, the
// lock-or-insert of a group of new items, and the resolution of their references) probe the table's unique indexes
// however much the table has grown since the connection prepared them. A prepared statement's plan is made on its first
// uses, when a new store's tables are empty: a look-up planned as a join then scans the whole table each time, and
// keeps doing so as the table grows. Seen in the table's own counters, which each connection reports to the statistics
// when it ends.
import { expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { planPostgresSchema } from '../../src/store/postgres/schema.js';
import type { Store } from '../../src/store/store.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import { resources, school, seedSampleDescriptors, student, studentSchoolAssociation } from './sample-documents.js';
import { tableCountersAfter } from './table-counters.js';

/** More rounds than PostgreSQL plans a prepared statement for its values before it settles on one plan. */
const ROUNDS_ON_A_SMALL_TABLE = 8;
const GROUP = 4;
const GROWN_TO = 2_000;

const SCHOOL_ID = 1;

/**
 * New students, upserted together after their natural keys and then their ids are looked up together, and an
 * enrolment of each, whose student references are resolved together.
 */
async function roundOf(store: Store, ids: readonly string[]): Promise<void> {
  const writes = ids.map((id) => documentWrite(resources.students, student(id)));
  const found = await Promise.all(writes.map((write) => store.findByIdentity(write)));
  expect(found.every((document) => document === undefined)).toBe(true);
  const outcomes = await Promise.all(writes.map((write) => store.upsert(write)));
  expect(outcomes.every((outcome) => outcome.status === 'created')).toBe(true);
  const read = await Promise.all(outcomes.map((outcome) => store.get(resources.students, outcome.id)));
  expect(read.map((document) => document?.id)).toEqual(outcomes.map((outcome) => outcome.id));
  const enrolments = await Promise.all(
    ids.map((id) =>
      store.upsert(documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation(id, SCHOOL_ID))),
    ),
  );
  expect(enrolments.every((outcome) => outcome.status === 'created')).toBe(true);
}

function idsFrom(first: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `K${first + index}`);
}

describePostgres('PostgreSQL look-ups of several keys', () => {
  const newSchema = schemasDroppedAfterAll();
  const studentTable = planPostgresSchema(getModelRegistry()).layouts.get('ed-fi/students')!.table;

  it('probe the unique indexes after the table has grown from empty, never scanning it', async () => {
    const schema = newSchema('probes');
    // One connection: it prepares every statement while the table is small, and its counters arrive in one report.
    const store = new PostgresStore(postgresSpec(schema, { poolSize: '1' }));
    let written = 0;
    try {
      await store.migrate();
      await store.open();
      await seedSampleDescriptors(store);
      await store.upsert(documentWrite(resources.schools, school(SCHOOL_ID)));
      for (let round = 0; round < ROUNDS_ON_A_SMALL_TABLE; round++, written += GROUP)
        await roundOf(store, idsFrom(written, GROUP));
      const grown = await Promise.all(
        idsFrom(written, GROWN_TO).map((id) => store.upsert(documentWrite(resources.students, student(id)))),
      );
      expect(grown.every((outcome) => outcome.status === 'created')).toBe(true);
      written += GROWN_TO;
      for (let round = 0; round < ROUNDS_ON_A_SMALL_TABLE; round++, written += GROUP)
        await roundOf(store, idsFrom(written, GROUP));
    } finally {
      await store.close();
    }
    const counters = { inserted: 'n_tup_ins', rowsReadBySequentialScans: 'seq_tup_read' };
    expect(await tableCountersAfter(schema, studentTable, written, counters)).toEqual({
      inserted: written,
      rowsReadBySequentialScans: 0,
    });
  }, 90_000);
});
