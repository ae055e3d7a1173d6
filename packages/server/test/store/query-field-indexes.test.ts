// Filters on the query fields of resources that grow with people (students here): answered from an index on the
// filter's own expression, partial where rows may lack the value, on SQLite and PostgreSQL — and answering exactly
// the documents that match, optional values and case-insensitive descriptors included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { createStore } from '../../src/store/index.js';
import { queryFieldSql } from '../../src/store/relational/query-field-sql.js';
import { tableLayoutOf, type LayoutOptions } from '../../src/store/relational/table-layout.js';
import type { SqlDialect } from '../../src/store/relational/sql-dialect.js';
import { postgresDialect } from '../../src/store/postgres/postgres-dialect.js';
import { sqliteDialect } from '../../src/store/sqlite/sqlite-dialect.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import {
  describePostgres,
  postgresSpec,
  schemasDroppedAfterAll,
  withConnection,
  withStoreConnection,
} from '../support/postgres.js';

const STUDENTS = 40;
/** A new store's schema (hundreds of tables and indexes) on a busy machine. */
const SETUP_TIMEOUT_MS = 120_000;
const SEX = 'uri://ed-fi.org/SexDescriptor#';

/** Student n: one of 4 birth dates, a middle name on every third, sex alternating. */
function student(n: number) {
  return {
    studentUniqueId: `Q${n}`,
    firstName: 'Query',
    lastSurname: `Student${n}`,
    birthDate: `2010-01-0${(n % 4) + 1}`,
    ...(n % 3 === 0 ? { middleName: 'Middle' } : {}),
    birthSexDescriptor: `${SEX}${n % 2 === 0 ? 'Female' : 'Male'}`,
  };
}

const expectedIds = (keep: (n: number) => boolean) =>
  Array.from({ length: STUDENTS }, (_, n) => n)
    .filter(keep)
    .map((n) => `Q${n}`)
    .sort();

/** The store is outdated, `migrate` upgrades it, and then it is current. */
async function expectUpgradedByMigrate(spec: string): Promise<void> {
  const store = createStore(spec);
  try {
    expect(await store.schemaStatus()).toBe('outdated');
    expect(await store.migrate()).toBe('upgraded');
    expect(await store.schemaStatus()).toBe('current');
  } finally {
    await store.close();
  }
}

interface IndexedStore {
  readonly newSpec: () => string;
  readonly dialect: SqlDialect;
  /** How the store lays out its tables (PostgreSQL keeps query fields in columns). */
  readonly layoutOptions: LayoutOptions;
  /** The plan of `SELECT … WHERE <expression> = <value> ORDER BY doc_id LIMIT 25` on the students table, as text. */
  plan(spec: string, sql: string): Promise<string>;
  /** The student query fields with an index (SQLite leaves descriptors folded by its own function unindexed). */
  readonly indexedFields: readonly string[];
}

function describeIndexes(name: string, store: IndexedStore) {
  describe(name, () => {
    let edfi: EdFiTestServer;
    let spec: string;

    async function filtered(query: string): Promise<string[]> {
      const response = await edfi.data('GET', `/ed-fi/students?${query}&limit=500`);
      expect(response.status, response.body).toBe(200);
      return response
        .json<{ studentUniqueId: string }[]>()
        .map((item) => item.studentUniqueId)
        .sort();
    }

    beforeAll(async () => {
      spec = store.newSpec();
      edfi = await startEdFiServer({ store: spec });
      for (let n = 0; n < STUDENTS; n++) {
        const body = JSON.stringify(student(n));
        const response = await edfi.data('POST', '/ed-fi/students', {
          body,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status, response.body).toBe(201);
      }
    }, SETUP_TIMEOUT_MS);
    afterAll(() => edfi?.close());

    it('answers filters on non-key fields exactly', async () => {
      expect(await filtered('birthDate=2010-01-02')).toEqual(expectedIds((n) => n % 4 === 1));
      expect(await filtered('middleName=Middle')).toEqual(expectedIds((n) => n % 3 === 0));
      const female = encodeURIComponent(`${SEX}FEMALE`);
      expect(await filtered(`birthSexDescriptor=${female}`)).toEqual(expectedIds((n) => n % 2 === 0));
      expect(await filtered('middleName=Other')).toEqual([]);
    });

    it.each(store.indexedFields.map((field) => [field]))('reads a %s filter from its index', async (field) => {
      const layout = tableLayoutOf(getModelRegistry().getResource('ed-fi', 'students')!, store.layoutOptions);
      const { expression } = queryFieldSql(layout, field, [`$.${field}`], store.dialect, 'r.');
      const sql = `SELECT r.doc_id FROM ${layout.table} r WHERE ${expression} = 'x' ORDER BY r.doc_id LIMIT 25`;
      expect(await store.plan(spec, sql)).toContain(
        `r_edfi_students_q_${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`,
      );
    });
  });
}

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-query-indexes-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeIndexes('SQLite', {
  newSpec: () => `sqlite:${path.join(folder, 'store.sqlite')}`,
  dialect: sqliteDialect,
  layoutOptions: {},
  indexedFields: ['birthDate', 'middleName'],
  // A plain connection, without the functions the store registers: the indexes must not need them.
  async plan(spec, sql) {
    const db = new Database(spec.slice('sqlite:'.length), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = db.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all();
      return rows.map((row) => row.detail).join('\n');
    } finally {
      db.close();
    }
  },
});

/** A new SQLite store changed by `ddl`, under another schema fingerprint: a store of the previous release. */
async function sqliteOfPreviousRelease(file: string, ddl: string): Promise<string> {
  const spec = `sqlite:${path.join(folder, file)}`;
  const made = createStore(spec);
  await made.migrate();
  await made.close();
  const db = new Database(spec.slice('sqlite:'.length));
  db.exec(ddl);
  db.prepare("UPDATE meta SET value = 'previous release' WHERE key = 'schema_fingerprint'").run();
  db.close();
  return spec;
}

describe('a SQLite store made before the query-field indexes', () => {
  it(
    'is outdated, and migrate adds the indexes',
    async () => {
      // What a store of the previous release looks like: without the index.
      const spec = await sqliteOfPreviousRelease('older.sqlite', 'DROP INDEX r_edfi_students_q_birth_date');
      await expectUpgradedByMigrate(spec);
      const check = new Database(spec.slice('sqlite:'.length), { readonly: true });
      const index = check.prepare("SELECT name FROM sqlite_master WHERE name = 'r_edfi_students_q_birth_date'").get();
      check.close();
      expect(index).toEqual({ name: 'r_edfi_students_q_birth_date' });
    },
    SETUP_TIMEOUT_MS,
  );
});

/** A grade's schoolYear and gradingPeriodSchoolYear compare the same column: one index serves both. */
const GRADE_SCHOOL_YEAR_COLUMN = 'grading_period_reference_school_year';
const RETIRED_GRADE_INDEX = 'r_edfi_grades_q_school_year';

describe('a SQLite store made with two indexes on one grade value', () => {
  it(
    'is outdated, and migrate drops the second; both filters are served by the one left',
    async () => {
      // What a store of the previous release looks like: a second index on the same value.
      const spec = await sqliteOfPreviousRelease(
        'two-grade-indexes.sqlite',
        `CREATE INDEX ${RETIRED_GRADE_INDEX} ON r_edfi_grades (${GRADE_SCHOOL_YEAR_COLUMN})`,
      );
      await expectUpgradedByMigrate(spec);
      const check = new Database(spec.slice('sqlite:'.length), { readonly: true });
      try {
        const indexes = check
          .prepare<[], string>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'r_edfi_grades' " +
              `AND sql LIKE '%(${GRADE_SCHOOL_YEAR_COLUMN})%'`,
          )
          .pluck()
          .all();
        expect(indexes).toEqual(['r_edfi_grades_q_grading_period_school_year']);
        const grades = tableLayoutOf(getModelRegistry().allResources.find((r) => r.endpoint === 'grades')!);
        for (const [name, paths] of Object.entries(grades.resource.queryFields).filter(([name]) =>
          ['schoolYear', 'gradingPeriodSchoolYear'].includes(name),
        )) {
          const { expression } = queryFieldSql(grades, name, paths, sqliteDialect, '');
          const plan = check
            .prepare<[], { detail: string }>(
              `EXPLAIN QUERY PLAN SELECT doc_id FROM r_edfi_grades WHERE ${expression} = 2026 ORDER BY doc_id LIMIT 25`,
            )
            .all();
          expect(plan.map((row) => row.detail).join('\n'), name).toContain(
            'USING COVERING INDEX r_edfi_grades_q_grading_period_school_year',
          );
        }
      } finally {
        check.close();
      }
    },
    SETUP_TIMEOUT_MS,
  );
});

describePostgres('PostgreSQL', () => {
  const newSchema = schemasDroppedAfterAll();
  describeIndexes('PostgreSQL', {
    newSpec: () => postgresSpec(newSchema('edfi_query_indexes')),
    dialect: postgresDialect,
    layoutOptions: { queryFieldColumns: true },
    indexedFields: ['birthDate', 'middleName', 'birthSexDescriptor'],
    plan: (spec, sql) =>
      withStoreConnection(spec, async (client) => {
        // A few rows make a scan cheapest; the question is whether the index can serve the filter at all.
        await client.query('SET enable_seqscan = off');
        const rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows;
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      }),
  });

  it(
    'upgrades a store whose indexes read the body: the column is added and filled, the index rebuilt on it',
    async () => {
      const spec = postgresSpec(newSchema('edfi_query_columns_upgrade'));
      const schema = new URL(spec).searchParams.get('schema')!;
      const first = await startEdFiServer({ store: spec });
      for (let n = 0; n < 8; n++) {
        const response = await first.data('POST', '/ed-fi/students', { body: student(n) });
        expect(response.status, response.body).toBe(201);
      }
      await first.close();
      // What a store of the previous release looks like: birthDate read from the body by its query-field index.
      await withStoreConnection(spec, async (client) => {
        await client.query('ALTER TABLE r_edfi_students DROP COLUMN birth_date');
        await client.query(
          "CREATE INDEX r_edfi_students_q_birth_date ON r_edfi_students (((body::jsonb #>> '{birthDate}')), doc_id) " +
            "WHERE (body::jsonb #>> '{birthDate}') IS NOT NULL",
        );
        await client.query("UPDATE meta SET text_value = 'previous release' WHERE key = 'schema_fingerprint'");
      });
      await expectUpgradedByMigrate(spec);
      const definition = await withConnection(async (client) => {
        const { rows } = await client.query<{ indexdef: string }>(
          "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'r_edfi_students_q_birth_date'",
          [schema],
        );
        return rows.map((row) => row.indexdef);
      });
      expect(definition).toHaveLength(1);
      expect(definition[0]).toContain('(birth_date, doc_id)');
      expect(definition[0]).not.toContain('body');
      const upgraded = await startEdFiServer({ store: spec, seed: false });
      try {
        const response = await upgraded.data('GET', '/ed-fi/students?birthDate=2010-01-02');
        expect(response.status, response.body).toBe(200);
        const ids = response.json<{ studentUniqueId: string }[]>().map((item) => item.studentUniqueId);
        expect(ids.sort()).toEqual(['Q1', 'Q5']);
      } finally {
        await upgraded.close();
      }
    },
    SETUP_TIMEOUT_MS,
  );
});
