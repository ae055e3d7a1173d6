// The PostgreSQL reader prepares every statement, yet thousands of distinct filter combinations leave at most the
// bound of prepared statements on each connection, pooled or a snapshot's, and the lists answer as before.
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { PostgresCatalog } from '../../src/store/postgres/catalog.js';
import { parsePostgresSpec } from '../../src/store/postgres/connection-spec.js';
import { PostgresDocumentReader } from '../../src/store/postgres/document-reader.js';
import { createClient, createPool } from '../../src/store/postgres/pool.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { PREPARED_SHAPES_PER_CONNECTION } from '../../src/store/postgres/prepared-budget.js';
import { PostgresReadStatements } from '../../src/store/postgres/read-statements.js';
import { planPostgresSchema, readResourceTypes } from '../../src/store/postgres/schema.js';
import type { AccessFilter, ListQuery, ListResult } from '../../src/store/store.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import { resources, seedSampleDescriptors } from './sample-documents.js';

const registry = getModelRegistry();
const POOL_SIZE = 2;
const DISTRICT = 255901;
const SCHOOL = 255901001;

/** Text query fields of a student: each subset of them is a filter combination of its own. */
const TEXT_FIELDS = [
  'birthCity',
  'birthInternationalProvince',
  'firstName',
  'generationCodeSuffix',
  'lastSurname',
  'maidenName',
  'middleName',
  'personalTitlePrefix',
  'preferredFirstName',
  'preferredLastSurname',
] as const;

/** A student with every text field set, each value telling the student apart. */
function fullStudent(studentUniqueId: string): Record<string, unknown> {
  const fields = Object.fromEntries(TEXT_FIELDS.map((field) => [field, `${field} of ${studentUniqueId}`]));
  return { ...student(studentUniqueId), ...fields };
}

const enrolled: AccessFilter = {
  educationOrganizationIds: [SCHOOL],
  relationships: [{ educationOrganizations: 'none', students: 'enrollment', staffs: false, contacts: false }],
};

/** 2^10 field subsets, each without and with an access filter: 2,048 shapes, two statements (page, count) each. */
function distinctQueries(): ListQuery[] {
  const queries: ListQuery[] = [];
  for (let subset = 0; subset < 2 ** TEXT_FIELDS.length; subset++) {
    const fields = TEXT_FIELDS.filter((_, bit) => (subset & (1 << bit)) !== 0);
    const filters = [
      { field: 'studentUniqueId', value: 's1' },
      ...fields.map((field) => ({ field, value: `${field} of s1` })),
    ];
    for (const access of [undefined, enrolled])
      queries.push({ filters, offset: 0, limit: 10, totalCount: true, access });
  }
  return queries;
}

const PREPARED_COUNT = 'SELECT count(*)::int AS count FROM pg_prepared_statements';

async function preparedOn(client: pg.ClientBase): Promise<number> {
  return (await client.query<{ count: number }>(PREPARED_COUNT)).rows[0]!.count;
}

/** Runs each query, `concurrency` at a time, calling `between` after each group. */
async function listAll(
  reader: PostgresDocumentReader,
  queries: readonly ListQuery[],
  concurrency: number,
  between: () => Promise<void>,
): Promise<ListResult[]> {
  const results: ListResult[] = [];
  for (let start = 0; start < queries.length; start += concurrency) {
    const group = queries.slice(start, start + concurrency);
    results.push(...(await Promise.all(group.map((query) => reader.list(resources.students, query)))));
    await between();
  }
  return results;
}

describePostgres('PostgreSQL prepared statements per connection', () => {
  const schema = schemasDroppedAfterAll()('prepared');
  const spec = postgresSpec(schema, { poolSize: String(POOL_SIZE) });
  const queries = distinctQueries();
  let pool: pg.Pool;
  let statements: PostgresReadStatements;
  let studentId: string;

  beforeAll(async () => {
    const store = new PostgresStore(spec);
    await store.migrate();
    await store.open();
    try {
      await seedSampleDescriptors(store);
      await store.upsert(documentWrite(resources.localEducationAgencies, localEducationAgency(DISTRICT)));
      await store.upsert(documentWrite(resources.schools, school(SCHOOL, DISTRICT)));
      for (const id of ['s1', 's2']) {
        const written = await store.upsert(documentWrite(resources.students, fullStudent(id)));
        if (id === 's1') studentId = written.id;
        await store.upsert(documentWrite(resources.studentSchoolAssociations, enrollment(id, SCHOOL)));
      }
    } finally {
      await store.close();
    }
    pool = createPool(parsePostgresSpec(spec));
    const catalog = new PostgresCatalog(planPostgresSchema(registry), await readResourceTypes(pool), registry);
    statements = new PostgresReadStatements(catalog, registry);
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
  });

  const expectStudentOne = (results: readonly ListResult[]) => {
    expect(results).toHaveLength(queries.length);
    for (const result of results) {
      expect(result.totalCount).toBe(1);
      expect(result.items.map((item) => item.id)).toEqual([studentId]);
    }
  };

  it('keeps each pooled connection at or under the bound, retiring the connections that reach it', async () => {
    const reader = new PostgresDocumentReader(pool, statements);
    let retired = 0;
    pool.on('remove', () => retired++);
    const counts: number[] = [];
    const countEveryConnection = async () => {
      const clients = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
      try {
        for (const client of clients) {
          const count = await preparedOn(client);
          expect(count).toBe(statements.prepared.preparedOn(client));
          counts.push(count);
        }
      } finally {
        for (const client of clients) client.release();
      }
    };

    expectStudentOne(await listAll(reader, queries, 32, countEveryConnection));

    expect(queries.length * 2).toBeGreaterThan(POOL_SIZE * PREPARED_SHAPES_PER_CONNECTION * 4);
    expect(Math.max(...counts)).toBeLessThanOrEqual(PREPARED_SHAPES_PER_CONNECTION);
    expect(Math.max(...counts)).toBeGreaterThan(PREPARED_SHAPES_PER_CONNECTION / 2);
    expect(retired).toBeGreaterThan(0);
  }, 120_000);

  it("keeps a snapshot's connection at the bound, running further shapes unnamed on it", async () => {
    const client = createClient(parsePostgresSpec(spec));
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = new PostgresDocumentReader(client, statements);
      const counts: number[] = [];
      const results = await listAll(snapshot, queries, 32, async () => {
        counts.push(await preparedOn(client));
      });
      expectStudentOne(results);
      expect(counts.every((count) => count <= PREPARED_SHAPES_PER_CONNECTION)).toBe(true);
      expect(counts.at(-1)).toBe(PREPARED_SHAPES_PER_CONNECTION);
      // Again: the prepared shapes are reused, the others run unnamed, and nothing more is prepared.
      expectStudentOne(await listAll(snapshot, queries, 32, async () => {}));
      expect(await preparedOn(client)).toBe(PREPARED_SHAPES_PER_CONNECTION);
    } finally {
      await client.end();
    }
  }, 120_000);
});
