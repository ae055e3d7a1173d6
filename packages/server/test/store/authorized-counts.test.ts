// Total-Count and partitions of a relationship-scoped list test every matching row as one set of the people the caller
// relates to (the 'population' form of access-sql.ts), where a page probes each row it reads: both must agree. For
// every rule and several claims, on both stores, the count equals the items a paged read returns and the partitions
// of one item each. On SQLite the count of an enrolment-like table reads its securables index alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import { createStore, openStore, type AccessFilter, type RelationshipRule, type Store } from '../../src/store/index.js';
import { AccessSql } from '../../src/store/relational/access-sql.js';
import { ListSql } from '../../src/store/relational/list-sql.js';
import { planLayouts, resourceKey } from '../../src/store/relational/schema-plan.js';
import { sqliteDialect } from '../../src/store/sqlite/sqlite-dialect.js';
import {
  enrollment,
  localEducationAgency,
  school,
  stateEducationAgency,
  student,
} from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { seedReferenceData, systemPost } from '../support/system-writes.js';
import { rule } from './store-assertions.js';

const registry = getModelRegistry();
const resourceOf = (endpoint: string): ResourceModel => registry.getResource('ed-fi', endpoint)!;
const SCHOOLS = [101, 102, 201];
const STUDENTS = 12;

const RULES: Readonly<Record<string, readonly RelationshipRule[]>> = {
  'ed-orgs and people': [
    rule({ educationOrganizations: 'descendants', students: 'enrollment', staffs: true, contacts: true }),
  ],
  'students only': [rule({ students: 'enrollment' })],
  'students through responsibility': [rule({ students: 'responsibility' })],
  'people only': [rule({ students: 'enrollment', staffs: true, contacts: true })],
  'ed-orgs inverted': [rule({ educationOrganizations: 'ancestors' })],
  'enrolment or responsibility': [rule({ students: 'enrollment' }), rule({ students: 'responsibility' })],
};
const CLAIMS = [[1], [10], [20], [101], [201], [102, 201], [999]];
const RESOURCES = [
  'studentSchoolAssociations',
  'studentEducationOrganizationResponsibilityAssociations',
  'students',
  'studentContactAssociations',
  'contacts',
  'staffEducationOrganizationAssignmentAssociations',
  'staffs',
  'schools',
];

/**
 * A state (1), two districts (10: schools 101 and 102; 20: school 201), students enrolled round-robin and the first
 * three in a second school, one unenrolled, a responsibility in district 20, a contact per student and staff assigned
 * to each school.
 */
async function writeDistricts(store: Store): Promise<void> {
  await seedReferenceData(store, registry);
  const post = (endpoint: string, document: object) => systemPost(store, registry, endpoint, document);
  await post('stateEducationAgencies', stateEducationAgency(1));
  for (const lea of [10, 20]) await post('localEducationAgencies', localEducationAgency(lea, 1));
  for (const id of SCHOOLS) await post('schools', school(id, id < 200 ? 10 : 20));
  for (let n = 0; n <= STUDENTS; n++) {
    await post('students', student(`S${n}`));
    await post('contacts', { contactUniqueId: `C${n}`, firstName: 'C', lastSurname: `C${n}` });
    await post('studentContactAssociations', {
      studentReference: { studentUniqueId: `S${n}` },
      contactReference: { contactUniqueId: `C${n}` },
    });
    if (n === STUDENTS) continue;
    await post('studentSchoolAssociations', enrollment(`S${n}`, SCHOOLS[n % 3]!));
    if (n < 3) await post('studentSchoolAssociations', enrollment(`S${n}`, SCHOOLS[(n + 1) % 3]!));
  }
  await post('studentEducationOrganizationResponsibilityAssociations', {
    studentReference: { studentUniqueId: 'S4' },
    educationOrganizationReference: { educationOrganizationId: 20 },
    responsibilityDescriptor: 'uri://ed-fi.org/ResponsibilityDescriptor#Accountability',
    beginDate: '2021-01-01',
  });
  for (const id of SCHOOLS) {
    await post('staffs', { staffUniqueId: `T${id}`, firstName: 'T', lastSurname: `T${id}` });
    await post('staffEducationOrganizationAssignmentAssociations', {
      staffReference: { staffUniqueId: `T${id}` },
      educationOrganizationReference: { educationOrganizationId: id },
      staffClassificationDescriptor: 'uri://ed-fi.org/StaffClassificationDescriptor#Teacher',
      beginDate: '2020-01-01',
    });
  }
}

/** Every item of the scoped list, read two at a time, and the Total-Count of its first page. */
async function pagedRead(store: Store, resource: ResourceModel, access: AccessFilter) {
  const ids: string[] = [];
  let totalCount: number | undefined;
  for (let offset = 0; ; offset += 2) {
    const page = await store.list(resource, { filters: [], offset, limit: 2, totalCount: offset === 0, access });
    totalCount ??= page.totalCount;
    ids.push(...page.items.map((item) => item.id));
    if (page.items.length < 2) return { ids, totalCount };
  }
}

describeEachStore('authorized Total-Count and partitions', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await stores.newSpec(), registry);
    await writeDistricts(store);
  }, 120_000);
  afterAll(() => store.close());

  it.each(Object.keys(RULES))('%s: the count is the number of items a paged read returns', async (name) => {
    for (const endpoint of RESOURCES)
      for (const educationOrganizationIds of CLAIMS) {
        const access = { educationOrganizationIds, relationships: RULES[name]! };
        const resource = resourceOf(endpoint);
        const { ids, totalCount } = await pagedRead(store, resource, access);
        const partitions = await store.partitionStarts(resource, { filters: [], count: 100, minimumSize: 1, access });
        const context = `${endpoint} for ${educationOrganizationIds.join(',')}`;
        expect(totalCount, context).toBe(ids.length);
        expect(partitions.length, context).toBe(ids.length);
      }
  });

  it('the cases relate some rows and not others', async () => {
    const counts = await Promise.all(
      CLAIMS.map(async (educationOrganizationIds) => {
        const access = { educationOrganizationIds, relationships: RULES['ed-orgs and people']! };
        return (await pagedRead(store, resourceOf('studentSchoolAssociations'), access)).ids.length;
      }),
    );
    expect(counts).toEqual([15, 10, 5, 5, 5, 10, 0]);
  });
});

describe('the count of a relationship-scoped enrolment list on SQLite', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'edfi-authorized-counts-'));
  const file = path.join(folder, 'store.sqlite');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reads the securables index alone: no table rows, no bodies', async () => {
    const store = createStore(`sqlite:${file}`);
    await store.migrate();
    await store.close();
    const { layouts } = planLayouts(registry);
    const catalog = {
      tableOf: (resource: ResourceModel) => ({ layout: layouts.get(resourceKey(resource))!, resourceId: 0 }),
    };
    const table = catalog.tableOf(resourceOf('studentSchoolAssociations'));
    const list = new ListSql(table, new AccessSql(catalog, registry, sqliteDialect), sqliteDialect);
    const access = { educationOrganizationIds: [10], relationships: RULES['ed-orgs and people']! };
    const { count } = list.shapeOf({ filters: [], access }).statements();
    const db = new Database(file, { readonly: true });
    try {
      const plan = db
        .prepare<[{ claims: string }], { detail: string }>(`EXPLAIN QUERY PLAN ${count}`)
        .all({ claims: '[10]' })
        .map((row) => row.detail);
      expect(plan[0]).toBe(
        `SEARCH r USING COVERING INDEX ${table.layout.table}_securables (student_reference_student_unique_id=?)`,
      );
    } finally {
      db.close();
    }
  });
});
