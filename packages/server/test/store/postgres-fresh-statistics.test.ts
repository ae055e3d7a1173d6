// A table filled through the API gets planner statistics without an operator's ANALYZE or autovacuum's next pass (which
// may be a minute away, or never: autovacuum can be off): the store analyzes a table that has grown a lot since its last
// analyze. Without statistics the planner takes a filter on a value every row has (a school's enrolments by schoolId)
// to match few rows, reads them all through the filter's index and sorts them; with them, it reads a page in doc_id
// order and stops at the page's end.
import { expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { planPostgresSchema } from '../../src/store/postgres/schema.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withConnection } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import { resources, school, seedSampleDescriptors, student, studentSchoolAssociation } from './sample-documents.js';

const SCHOOL_ID = 1;
/** Enough rows for the store to analyze the tables, which it does after 1,000 new rows at the earliest. */
const ENROLMENTS = 2_500;
const WRITES_AT_ONCE = 100;
/**
 * How long the statistics may take to appear: the store checks a table at most every 2 s, and once more 11 s after a
 * check that PostgreSQL's lagging row counts made too early.
 */
const STATISTICS_WAIT_MS = 30_000;

const layouts = planPostgresSchema(getModelRegistry()).layouts;
const enrolmentTable = layouts.get('ed-fi/studentSchoolAssociations')!.table;
const schoolTable = layouts.get('ed-fi/schools')!.table;

/** The columns of `table` that have planner statistics. */
async function columnsWithStatistics(schema: string, table: string): Promise<number> {
  return withConnection(async (client) => {
    const { rows } = await client.query<{ columns: number }>(
      'SELECT count(*)::int AS columns FROM pg_stats WHERE schemaname = $1 AND tablename = $2',
      [schema, table],
    );
    return rows[0]!.columns;
  });
}

/** The statistics' columns once there are some (or after the wait, when there never are). */
async function statisticsAfterGrowth(schema: string, table: string): Promise<number> {
  const deadline = Date.now() + STATISTICS_WAIT_MS;
  for (;;) {
    const columns = await columnsWithStatistics(schema, table);
    if (columns > 0 || Date.now() > deadline) return columns;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The generic plan of a page of the enrolments filtered on their school, as a prepared list statement gets it. */
async function filteredPagePlan(schema: string): Promise<string> {
  return withConnection(async (client) => {
    await client.query(`SET search_path TO "${schema}"`);
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(
      `PREPARE page (bigint) AS SELECT doc_id FROM ${enrolmentTable} ` +
        'WHERE school_reference_school_id = $1 ORDER BY doc_id LIMIT 25',
    );
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE page (${SCHOOL_ID})`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describePostgres('PostgreSQL statistics of tables filled through the API', () => {
  const newSchema = schemasDroppedAfterAll();

  it('analyzes a table that grew from empty, so that a filtered page is read in doc_id order', async () => {
    const schema = newSchema('fresh_statistics');
    const store = new PostgresStore(postgresSpec(schema));
    try {
      await store.migrate();
      await store.open();
      await seedSampleDescriptors(store);
      await store.upsert(documentWrite(resources.schools, school(SCHOOL_ID)));
      for (let first = 0; first < ENROLMENTS; first += WRITES_AT_ONCE) {
        const ids = Array.from({ length: WRITES_AT_ONCE }, (_, index) => `F${first + index}`);
        await Promise.all(ids.map((id) => store.upsert(documentWrite(resources.students, student(id)))));
        await Promise.all(
          ids.map((id) =>
            store.upsert(documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation(id, SCHOOL_ID))),
          ),
        );
      }
      expect(await statisticsAfterGrowth(schema, enrolmentTable)).toBeGreaterThan(0);
      const plan = await filteredPagePlan(schema);
      expect(plan).toContain(`Index Scan using ${enrolmentTable}_pkey`);
      expect(plan).not.toContain('Sort');
      // One school is no growth: left to autovacuum.
      expect(await columnsWithStatistics(schema, schoolTable)).toBe(0);
    } finally {
      await store.close();
    }
  }, 120_000);
});
