// Pages of relationship-scoped lists are read by scanning in doc_id order for a client whose claims reach most of the
// ed-orgs, and from the client's own population for one whose claims reach few (scope-breadth.ts): either way the
// same items in the same order, at every offset, with the same Total-Count. Students are enrolled school by school, so
// the last school's rows come after every other school's, as in a state loaded district by district.
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import {
  openStore,
  type AccessFilter,
  type QueryFilter,
  type RelationshipRule,
  type Store,
} from '../../src/store/index.js';
import * as districts from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { withStoreConnection } from '../support/postgres.js';
import { seedReferenceData } from '../support/system-writes.js';
import { documentWrite, resourceNamed } from './document-writes.js';
import { rule } from './store-assertions.js';

const registry = getModelRegistry();

const SEA = 1;
/** Each LEA's schools; ten ed-orgs in all, so that one LEA (three of them) or one school reaches few. */
const DISTRICTS: ReadonlyMap<number, readonly number[]> = new Map([
  [10, [11, 12]],
  [20, [21, 22]],
  [30, [31, 32]],
]);
const SCHOOLS = [...DISTRICTS.values()].flat();
const LAST_SCHOOL = SCHOOLS.at(-1)!;
const STUDENTS_PER_SCHOOL = 7;
const ENROLMENTS = resourceNamed('studentSchoolAssociations');

const EDORGS_AND_PEOPLE = rule({ educationOrganizations: 'descendants', students: 'enrollment', staffs: true });
const CASES: readonly { endpoint: string; rule: RelationshipRule }[] = [
  { endpoint: 'studentSchoolAssociations', rule: EDORGS_AND_PEOPLE },
  { endpoint: 'students', rule: rule({ students: 'enrollment' }) },
  { endpoint: 'schools', rule: rule({ educationOrganizations: 'descendants' }) },
  { endpoint: 'localEducationAgencies', rule: rule({ educationOrganizations: 'ancestors' }) },
];
const CLAIMS: readonly (readonly number[])[] = [[SEA], [30], [LAST_SCHOOL], [11, LAST_SCHOOL], [20, 31]];

/** Each ed-org's parent. */
const PARENTS: ReadonlyMap<number, number> = new Map([
  ...[...DISTRICTS.keys()].map((lea): [number, number] => [lea, SEA]),
  ...[...DISTRICTS].flatMap(([lea, schools]) => schools.map((schoolId): [number, number] => [schoolId, lea])),
]);
const EDORGS = [SEA, ...PARENTS.keys()];

/** The ed-org and those above it. */
function chainOf(edOrg: number): number[] {
  const parent = PARENTS.get(edOrg);
  return parent === undefined ? [edOrg] : [edOrg, ...chainOf(parent)];
}

/** The ed-orgs at or below the claims (descendants), or at or above them (ancestors). */
function reachOf(claims: readonly number[], direction: RelationshipRule['educationOrganizations']): Set<number> {
  if (direction === 'ancestors') return new Set(claims.flatMap(chainOf));
  return new Set([...claims, ...EDORGS.filter((edOrg) => chainOf(edOrg).some((above) => claims.includes(above)))]);
}

interface Enrolment {
  readonly studentUniqueId: string;
  readonly schoolId: number;
}

/** Every school's students in turn; every fifth student of a school also enrolled in the next school. */
function enrolments(): Enrolment[] {
  return SCHOOLS.flatMap((schoolId, index) =>
    Array.from({ length: STUDENTS_PER_SCHOOL }, (_, n) => {
      const studentUniqueId = `S${schoolId}-${n}`;
      const next = SCHOOLS[(index + 1) % SCHOOLS.length]!;
      return [{ studentUniqueId, schoolId }, ...(n % 5 === 0 ? [{ studentUniqueId, schoolId: next }] : [])];
    }).flat(),
  );
}

type Write = (endpoint: string, body: Record<string, unknown>) => Promise<unknown>;

/** The reference data, then the SEA, and each LEA followed by its schools; returns how to write more. */
async function writeEdOrgs(store: Store, edOrgs: ReadonlyMap<number, readonly number[]>): Promise<Write> {
  await seedReferenceData(store, registry);
  const write: Write = (endpoint, body) => store.upsert(documentWrite(resourceNamed(endpoint), body));
  await write('stateEducationAgencies', districts.stateEducationAgency(SEA));
  for (const [lea, schools] of edOrgs) {
    await write('localEducationAgencies', districts.localEducationAgency(lea, SEA));
    for (const schoolId of schools) await write('schools', districts.school(schoolId, lea));
  }
  return write;
}

async function writeState(store: Store): Promise<void> {
  const write = await writeEdOrgs(store, DISTRICTS);
  for (const { studentUniqueId, schoolId } of enrolments()) {
    if (schoolId === Number(studentUniqueId.slice(1).split('-')[0]))
      await write('students', districts.student(studentUniqueId));
    await write('studentSchoolAssociations', districts.enrollment(studentUniqueId, schoolId));
  }
}

/** Whether the item is one the claims may read under the rule, by the ODS's semantics, in JavaScript. */
function authorizedBy(claims: readonly number[], relationship: RelationshipRule) {
  const edOrgs = reachOf(claims, relationship.educationOrganizations);
  const enrolled = new Set(
    enrolments()
      .filter((enrolment) => reachOf(claims, 'descendants').has(enrolment.schoolId))
      .map((enrolment) => enrolment.studentUniqueId),
  );
  return (body: Record<string, unknown>): boolean => {
    const edOrg = (body.schoolReference as { schoolId: number } | undefined)?.schoolId ?? body.schoolId;
    const studentUniqueId =
      (body.studentReference as { studentUniqueId: string } | undefined)?.studentUniqueId ?? body.studentUniqueId;
    const id = edOrg ?? body.localEducationAgencyId;
    return (
      (relationship.educationOrganizations === 'none' || edOrgs.has(id as number)) &&
      (relationship.students === 'none' || enrolled.has(studentUniqueId as string))
    );
  };
}

describeEachStore('pages of relationship-scoped lists', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await stores.newSpec(), registry);
    await writeState(store);
  }, 120_000);
  afterAll(() => store.close());

  /** The items the claims may read, in doc_id order: the unauthorized list's, filtered in JavaScript. */
  async function expectedIds(resource: ResourceModel, claims: readonly number[], relationship: RelationshipRule) {
    const all = await store.list(resource, { filters: [], offset: 0, limit: 1000, totalCount: false });
    return all.items
      .filter((item) => authorizedBy(claims, relationship)(JSON.parse(item.bodyJson) as Record<string, unknown>))
      .map((item) => item.id);
  }

  it.each(CASES)('$endpoint: the first page, a deep offset and Total-Count', async ({ endpoint, rule }) => {
    const resource = resourceNamed(endpoint);
    for (const educationOrganizationIds of CLAIMS) {
      const access: AccessFilter = { educationOrganizationIds, relationships: [rule] };
      const expected = await expectedIds(resource, educationOrganizationIds, rule);
      const context = `${endpoint} for ${educationOrganizationIds.join(',')}`;
      const first = await store.list(resource, { filters: [], offset: 0, limit: 5, totalCount: true, access });
      expect(
        first.items.map((item) => item.id),
        context,
      ).toEqual(expected.slice(0, 5));
      expect(first.totalCount, context).toBe(expected.length);
      const deep = Math.max(0, expected.length - 4);
      const last = await store.list(resource, { filters: [], offset: deep, limit: 5, totalCount: false, access });
      expect(
        last.items.map((item) => item.id),
        context,
      ).toEqual(expected.slice(deep));
    }
  });

  it.each(CASES)('$endpoint: a read page after page returns every item once', async ({ endpoint, rule }) => {
    const resource = resourceNamed(endpoint);
    for (const educationOrganizationIds of CLAIMS) {
      const access: AccessFilter = { educationOrganizationIds, relationships: [rule] };
      const read: string[] = [];
      for (let offset = 0; ; offset += 3) {
        const page = await store.list(resource, { filters: [], offset, limit: 3, totalCount: false, access });
        read.push(...page.items.map((item) => item.id));
        if (page.items.length < 3) break;
      }
      expect(read, `${endpoint} for ${educationOrganizationIds.join(',')}`).toEqual(
        await expectedIds(resource, educationOrganizationIds, rule),
      );
    }
  });

  it('the cases cover all, some and none of the items', async () => {
    const resource = resourceNamed('studentSchoolAssociations');
    const counts = [];
    for (const educationOrganizationIds of [[SEA], [30], [LAST_SCHOOL], [999]]) {
      const access = { educationOrganizationIds, relationships: [EDORGS_AND_PEOPLE] };
      counts.push(
        (await store.list(resource, { filters: [], offset: 0, limit: 0, totalCount: true, access })).totalCount,
      );
    }
    expect(counts).toEqual([54, 18, 9, 0]);
  });
});

/**
 * A larger state, for plans chosen as at scale: two LEAs of ten schools each, written school by school, so that the
 * last school's rows come after every other's.
 */
const LARGE_DISTRICTS: ReadonlyMap<number, readonly number[]> = new Map(
  [40, 50].map((lea) => [lea, Array.from({ length: 10 }, (_, n) => lea * 10 + n + 1)]),
);
const LARGE_SCHOOLS = [...LARGE_DISTRICTS.values()].flat();
const LARGE_SCHOOL_STUDENTS = 250;

async function writeLargeState(store: Store): Promise<void> {
  const write = await writeEdOrgs(store, LARGE_DISTRICTS);
  for (const schoolId of LARGE_SCHOOLS) {
    const students = Array.from({ length: LARGE_SCHOOL_STUDENTS }, (_, n) => `L${schoolId}-${n}`);
    await Promise.all(students.map((id) => write('students', districts.student(id))));
    await Promise.all(students.map((id) => write('studentSchoolAssociations', districts.enrollment(id, schoolId))));
  }
}

interface EnrolmentBody {
  readonly schoolReference: { readonly schoolId: number };
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly Alias?: string;
  readonly 'Index Name'?: string;
  readonly 'Actual Rows': number;
  readonly 'Actual Loops': number;
  readonly 'Rows Removed by Filter'?: number;
  readonly 'Heap Fetches'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** A PostgreSQL plan's reads of the listed table (aliased `r`, `r_1`, …), not of the same table as the association. */
function readsOf(node: PlanNode, table: string): PlanNode[] {
  const listed = node['Relation Name'] === table && /^r(_\d+)?$/.test(node.Alias ?? '');
  return [...(listed ? [node] : []), ...(node.Plans ?? []).flatMap((child) => readsOf(child, table))];
}

/**
 * The rows a PostgreSQL plan read from the listed table: returned by its scans of it, or read and filtered out. An
 * index-only scan reads rows only to learn whether entries are visible (its heap fetches, a total over its loops): on
 * tables this small, PostgreSQL reads a whole securables index rather than probe it student by student.
 */
function rowsReadFrom(node: PlanNode, table: string): number {
  return readsOf(node, table).reduce(
    (sum, read) =>
      sum +
      (read['Node Type'] === 'Index Only Scan'
        ? read['Heap Fetches']!
        : (read['Actual Rows'] + (read['Rows Removed by Filter'] ?? 0)) * read['Actual Loops']),
    0,
  );
}

/**
 * VACUUM ANALYZE of the store's tables, as autovacuum leaves a settled store: statistics for the planner, and the
 * visibility map, without which an index-only scan still reads the table.
 */
async function settle(spec: string): Promise<void> {
  await withStoreConnection(spec, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      'SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema()',
    );
    for (const { name } of rows) await client.query(`VACUUM ANALYZE ${name}`);
  });
}

describeEachStore('the first page of a school late in doc_id order', (stores) => {
  const table = 'r_edfi_student_school_associations';
  let store: Store;
  let spec: string;
  beforeAll(async () => {
    spec = await stores.newSpec({ shared: true });
    store = await openStore(spec, registry);
    await writeLargeState(store);
    if (stores.name === 'PostgreSQL') await settle(spec);
  }, 120_000);
  afterAll(() => store.close());

  const firstPage = (educationOrganizationIds: number[], totalCount = false, filters: QueryFilter[] = []) =>
    store.list(ENROLMENTS, {
      filters,
      offset: 0,
      limit: 25,
      totalCount,
      access: { educationOrganizationIds, relationships: [EDORGS_AND_PEOPLE] },
    });

  /** SQLite's query plan of each page statement the store runs to read the first page for the claims. */
  async function sqlitePlans(educationOrganizationIds: number[]): Promise<string[][]> {
    const db = new Database(spec.slice('sqlite:'.length), { readonly: true });
    const statements = Object.getPrototypeOf(db.prepare('SELECT 1')) as Database.Statement;
    const all = vi.spyOn(statements, 'all');
    let run: string[];
    try {
      await firstPage(educationOrganizationIds);
      run = all.mock.contexts.map((statement) => (statement as Database.Statement).source);
    } finally {
      all.mockRestore();
    }
    try {
      const claims = JSON.stringify(educationOrganizationIds);
      return run
        .filter((sql) => sql.includes('LIMIT ? OFFSET ?'))
        .map((sql) =>
          db
            .prepare<[{ claims: string }, number, number], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
            .all({ claims }, 25, 0)
            .map((row) => row.detail),
        );
    } finally {
      db.close();
    }
  }

  /**
   * PostgreSQL's plans of the statements the store runs for the first page (with its Total-Count when asked) that
   * `selects` picks, by statement, planned as at scale: on tables this small, reading them whole is cheaper than any
   * index, whatever the statement.
   */
  async function postgresPlans(
    educationOrganizationIds: number[],
    selects: RegExp,
    totalCount = false,
    filters: QueryFilter[] = [],
  ): Promise<PlanNode[]> {
    const query = vi.spyOn(pg.Client.prototype, 'query');
    let run: { text: string; values: unknown[] }[];
    try {
      await firstPage(educationOrganizationIds, totalCount, filters);
      run = query.mock.calls.map(([config]) => config as unknown as { text: string; values: unknown[] });
    } finally {
      query.mockRestore();
    }
    return withStoreConnection(spec, async (client) => {
      await client.query('SET enable_seqscan = off');
      const plans: PlanNode[] = [];
      for (const { text, values } of run.filter((config) => selects.test(config.text))) {
        const explained = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
          values,
        );
        plans.push(explained.rows[0]!['QUERY PLAN'][0].Plan);
      }
      return plans;
    });
  }

  const PAGE_STATEMENT = /LIMIT \$\d+ OFFSET/;

  /** The rows PostgreSQL reads from the table for each page statement the store runs for the first page. */
  async function postgresRowsRead(educationOrganizationIds: number[]): Promise<number[]> {
    const plans = await postgresPlans(educationOrganizationIds, PAGE_STATEMENT);
    return plans.map((plan) => rowsReadFrom(plan, table));
  }

  it("reads the school's own rows, not the rows before them", async () => {
    if (stores.name === 'SQLite') {
      const [plan, ...others] = await sqlitePlans([LARGE_SCHOOLS.at(-1)!]);
      expect(others).toEqual([]);
      expect(plan).toContain(
        `SEARCH r USING COVERING INDEX ${table}_securables (student_reference_student_unique_id=?)`,
      );
      expect(plan).not.toContain('SCAN r');
    } else {
      const [read, ...others] = await postgresRowsRead([LARGE_SCHOOLS.at(-1)!]);
      expect(others).toEqual([]);
      // The school's rows, and the page's again by doc id for its bodies.
      expect(read).toBeLessThanOrEqual(LARGE_SCHOOL_STUDENTS + 25);
    }
  });

  // Plans of PostgreSQL alone: SQLite's securables index holds the doc id (the rowid) by itself.
  if (stores.name === 'PostgreSQL') {
    // Before, no securables index held the doc id: the LEA's page fetched each of its rows from the table to sort them.
    it("an LEA's page and its Total-Count read the LEA's rows from the securables index alone", async () => {
      const lea = [...LARGE_DISTRICTS.keys()].at(-1)!;
      const schools = new Set(LARGE_DISTRICTS.get(lea));
      const all = await store.list(ENROLMENTS, { filters: [], offset: 0, limit: 10_000, totalCount: false });
      const expected = all.items
        .filter((item) => schools.has((JSON.parse(item.bodyJson) as EnrolmentBody).schoolReference.schoolId))
        .map((item) => item.id);
      const page = await firstPage([lea], true);
      expect(page.items.map((item) => item.id)).toEqual(expected.slice(0, 25));
      expect(page.totalCount).toBe(expected.length);

      const [pagePlan, ...otherPages] = await postgresPlans([lea], PAGE_STATEMENT, true);
      const [countPlan, ...otherCounts] = await postgresPlans([lea], /count\(\*\)/, true);
      expect([otherPages, otherCounts]).toEqual([[], []]);
      // The count needs no doc id: either securables index serves it.
      const expectations = [
        [pagePlan!, `${table}_securables_doc_ids`],
        [countPlan!, expect.stringMatching(new RegExp(`^${table}_securables`))],
      ] as const;
      for (const [plan, index] of expectations) {
        const population = readsOf(plan, table).filter((read) => read['Actual Rows'] * read['Actual Loops'] > 25);
        expect(population.map((read) => [read['Node Type'], read['Index Name'], read['Heap Fetches']])).toEqual([
          ['Index Only Scan', index, 0],
        ]);
      }
      // The page's rows alone, by doc id, for their bodies.
      const bodies = readsOf(pagePlan!, table).filter((read) => read['Node Type'] !== 'Index Only Scan');
      expect(bodies.map((read) => read['Actual Rows'] * read['Actual Loops'])).toEqual([25]);
    });
  }

  // Plans of PostgreSQL alone: SQLite plans the access test per row already.
  if (stores.name === 'PostgreSQL') {
    // Before, the access test was pulled up into joins, the SEA's reach taken for a few ed-orgs: the page of a value
    // every enrolment has was read from all of them (every student probed), then sorted.
    it("an SEA's page filtered on a value every row has reads about the page", async () => {
      const filters = [{ field: 'entryDate', value: '2021-08-23' }];
      const all = await store.list(ENROLMENTS, { filters: [], offset: 0, limit: 25, totalCount: false });
      const page = await firstPage([SEA], false, filters);
      expect(page.items.map((item) => item.id)).toEqual(all.items.map((item) => item.id));
      const [plan, ...others] = await postgresPlans([SEA], PAGE_STATEMENT, false, filters);
      expect(others).toEqual([]);
      expect(rowsReadFrom(plan!, table)).toBeLessThanOrEqual(2 * 25);
    });

    it("an SEA's page filtered on one student reads that student's rows", async () => {
      const studentUniqueId = `L${LARGE_SCHOOLS.at(-1)!}-7`;
      const filters = [{ field: 'studentUniqueId', value: studentUniqueId }];
      const page = await firstPage([SEA], false, filters);
      expect(page.items.map((item) => (JSON.parse(item.bodyJson) as EnrolmentBody).schoolReference.schoolId)).toEqual([
        LARGE_SCHOOLS.at(-1)!,
      ]);
      const [plan, ...others] = await postgresPlans([SEA], PAGE_STATEMENT, false, filters);
      expect(others).toEqual([]);
      expect(rowsReadFrom(plan!, table)).toBeLessThanOrEqual(1);
    });
  }

  // Plans of SQLite alone: PostgreSQL reads a table this small whole for an SEA's page, whatever its settings.
  if (stores.name === 'SQLite') {
    // Before, SQLite sought the enrolments once per claimed ed-org, in id order, until one matched: for an SEA's rows
    // of late schools, once per school of the state.
    it("an SEA's page finds each row's enrolments by the student alone", async () => {
      const [plan, ...others] = await sqlitePlans([SEA]);
      expect(others).toEqual([]);
      const probes = plan!.filter((detail) => detail.startsWith('SEARCH student_'));
      expect(probes).not.toEqual([]);
      for (const probe of probes) expect(probe).toMatch(/_securables \(student_reference_student_unique_id=\?\)$/);
    });

    it('an SEA, whose rows are nearly all, still reads in doc_id order', async () => {
      const [plan, ...others] = await sqlitePlans([SEA]);
      expect(others).toEqual([]);
      expect(plan?.[0]).toBe('SCAN r');
    });
  }
});
