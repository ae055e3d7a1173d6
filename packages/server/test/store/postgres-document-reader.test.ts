// The PostgreSQL reader answers exactly as SQLite's: a data set written through the SQLite store is copied row for row
// into a PostgreSQL schema, and every read (by id, authorized, by key, lists, partitions, change feeds, probes) is
// compared between the two.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compilePathGetter, getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import { openStore } from '../../src/store/index.js';
import { PostgresCatalog } from '../../src/store/postgres/catalog.js';
import { parsePostgresSpec } from '../../src/store/postgres/connection-spec.js';
import { PostgresDocumentReader } from '../../src/store/postgres/document-reader.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { PostgresReadStatements } from '../../src/store/postgres/read-statements.js';
import {
  migrateSchema,
  planPostgresSchema,
  readResourceTypes,
  type PostgresSchemaPlan,
} from '../../src/store/postgres/schema.js';
import { resourceKey } from '../../src/store/relational/schema-plan.js';
import {
  tracksChanges,
  type AccessFilter,
  type ListQuery,
  type Store,
  type StoredDocument,
  type SubjectRelation,
} from '../../src/store/store.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import {
  algebraSection,
  classPeriod,
  course,
  courseOffering,
  location,
  resources,
  schoolYearType,
  section,
  seedSampleDescriptors,
  session,
  studentEducationOrganizationAssociation,
  studentSectionAssociation,
} from './sample-documents.js';
import { rule } from './store-assertions.js';

const registry = getModelRegistry();
const DISTRICT = 255901;
const SCHOOLS = [255901001, 255901002];
const OWNER = 7;

/** Schools, students, enrolments, a section with its chain, then deletions and key changes. */
async function writeDataSet(store: Store): Promise<void> {
  const write = (resource: ResourceModel, body: Record<string, unknown>, ownershipTokenId?: number) =>
    store.upsert({ ...documentWrite(resource, body), ownershipTokenId });
  await seedSampleDescriptors(store);
  await write(resources.schoolYearTypes, schoolYearType(2022));
  for (const district of [DISTRICT, 300000])
    await write(resources.localEducationAgencies, localEducationAgency(district));
  for (const id of SCHOOLS) await write(resources.schools, school(id, DISTRICT));
  await write(resources.schools, school(300000001, 300000));
  for (const [index, id] of ['s1', 's2', 's3', 's4', 's5'].entries()) {
    await write(resources.students, student(id), index % 2 === 0 ? OWNER : undefined);
    await write(resources.studentSchoolAssociations, enrollment(id, SCHOOLS[index % 2]!), OWNER);
    await write(
      resources.studentEducationOrganizationAssociations,
      studentEducationOrganizationAssociation(id, DISTRICT, [2022]),
    );
  }
  const algebra = algebraSection(SCHOOLS[0]!);
  await write(resources.sessions, session(algebra.schoolId, 'Fall'));
  await write(resources.courses, course('ALG-1', algebra.schoolId));
  await write(resources.courseOfferings, courseOffering(algebra));
  const period = await write(resources.classPeriods, classPeriod('P1', algebra.schoolId));
  await write(resources.locations, location('R101', algebra.schoolId));
  await write(resources.sections, section(algebra, { classPeriodNames: ['P1'], classroom: 'R101' }));
  await write(resources.studentSectionAssociations, studentSectionAssociation('s1', algebra));
  for (const name of ['P2', 'P3'])
    await store.update(period.id, documentWrite(resources.classPeriods, classPeriod(name, algebra.schoolId)));
  const gone = await store.list(resources.studentSchoolAssociations, { ...everything, limit: 2 });
  for (const item of gone.items) await store.delete(resources.studentSchoolAssociations, item.id);
  // Deleted and written again: its deletion is hidden.
  await write(resources.studentSchoolAssociations, enrollment('s1', SCHOOLS[0]!));
  const lonely = await write(resources.students, student('s9'));
  await store.delete(resources.students, lonely.id);
}

/** The tables of documents and their relations (not clients, tokens or the schema's bookkeeping). */
function documentTablesOf(db: Database.Database): string[] {
  const fixed = ['document', 'descriptor', 'ref_edge', 'descriptor_edge', 'tracked_change', 'document_owner'];
  const names = db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .pluck()
    .all();
  return names.filter(
    (name) => fixed.includes(name) || name.startsWith('r_') || name.startsWith('edorg_') || name.endsWith('_identity'),
  );
}

/** Copies the SQLite file's documents into the PostgreSQL schema, mapping resource ids by resource. */
/** The PostgreSQL columns a SQLite row of `table` lacks (query fields PostgreSQL keeps in columns), from its body. */
function columnsOnlyPostgresHas(plan: PostgresSchemaPlan, table: string, row: Record<string, unknown>) {
  const layout = [...plan.layouts.values()].find((each) => each.table === table);
  const missing = layout?.columns.filter((column) => !(column.name in row)) ?? [];
  if (missing.length === 0) return {};
  const body = JSON.parse(String(row.body)) as unknown;
  return Object.fromEntries(missing.map((column) => [column.name, column.read(body)]));
}

async function copyDocuments(
  file: string,
  pool: pg.Pool,
  plan: PostgresSchemaPlan,
  postgresIds: ReadonlyMap<string, number>,
): Promise<void> {
  const db = new Database(file, { readonly: true });
  try {
    const resourceIds = new Map<number, number>();
    const types = db.prepare<[], { resource_id: number; namespace: string; endpoint: string }>(
      'SELECT resource_id, namespace, endpoint FROM resource_type',
    );
    for (const type of types.all()) {
      const id = postgresIds.get(resourceKey(type));
      if (id !== undefined) resourceIds.set(type.resource_id, id);
    }
    // Referenced rows first: documents, then descriptors, then the rest.
    const tables = documentTablesOf(db).sort((a, b) => rank(a) - rank(b));
    for (const table of tables) {
      for (const sqliteRow of db.prepare<[], Record<string, unknown>>(`SELECT * FROM ${table}`).all()) {
        const row = { ...sqliteRow, ...columnsOnlyPostgresHas(plan, table, sqliteRow) };
        const columns = Object.keys(row);
        const values = columns.map((column) =>
          column === 'resource_id' ? resourceIds.get(row[column] as number) : row[column],
        );
        const placeholders = columns.map((_, index) => `$${index + 1}`);
        await pool.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})`, values);
      }
    }
    const version = db.prepare<[], number>("SELECT value FROM meta WHERE key = 'change_version'").pluck().get();
    await pool.query("UPDATE meta SET value = $1 WHERE key = 'change_version'", [version]);
  } finally {
    db.close();
  }
}

function rank(table: string): number {
  return table === 'document' ? 0 : table === 'descriptor' ? 1 : 2;
}

const everything: ListQuery = { filters: [], offset: 0, limit: 500, totalCount: true };

const claims = [DISTRICT];
const accessFilters: readonly AccessFilter[] = [
  { educationOrganizationIds: claims, relationships: [] },
  { educationOrganizationIds: claims, relationships: [rule({ educationOrganizations: 'descendants' })] },
  { educationOrganizationIds: [SCHOOLS[1]!], relationships: [rule({ educationOrganizations: 'ancestors' })] },
  { educationOrganizationIds: [SCHOOLS[0]!], relationships: [rule({ students: 'enrollment' })] },
  { educationOrganizationIds: claims, relationships: [rule({ students: 'responsibility' })] },
  {
    educationOrganizationIds: [SCHOOLS[1]!],
    relationships: [
      rule({ educationOrganizations: 'descendants', students: 'enrollment', staffs: true, contacts: true }),
      rule({ educationOrganizations: 'ancestors' }),
    ],
  },
  { educationOrganizationIds: claims, relationships: [], namespacePrefixes: ['uri://ED-FI.org', 'uri://other'] },
  { educationOrganizationIds: claims, relationships: [], namespacePrefixes: ['uri://other'] },
  {
    educationOrganizationIds: claims,
    relationships: [rule({ educationOrganizations: 'descendants' })],
    ownershipTokenIds: [OWNER],
  },
];

/** The resources the data set wrote. */
const written: readonly ResourceModel[] = [
  resources.schoolYearTypes,
  resources.localEducationAgencies,
  resources.schools,
  resources.students,
  resources.studentSchoolAssociations,
  resources.studentEducationOrganizationAssociations,
  resources.sessions,
  resources.courses,
  resources.courseOfferings,
  resources.classPeriods,
  resources.locations,
  resources.sections,
  resources.studentSectionAssociations,
  resources.gradeLevelDescriptors,
];

/** A filter on each query field, with the value the first stored document holds there. */
function fieldFiltersOf(resource: ResourceModel, document: StoredDocument): ListQuery['filters'] {
  const body = { ...(JSON.parse(document.bodyJson) as Record<string, unknown>), id: document.id };
  return Object.entries(resource.queryFields).flatMap(([field, paths]) => {
    const value = compilePathGetter(paths[0]!)(body);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? [{ field, value: typeof value === 'string' && field.endsWith('Descriptor') ? value.toUpperCase() : value }]
      : [];
  });
}

/** Each test compares hundreds of reads, one round trip each. */
const COMPARISON_TIMEOUT_MS = 60_000;

describePostgres('PostgresDocumentReader', () => {
  const folder = mkdtempSync(join(tmpdir(), 'postgres-reader-'));
  const file = join(folder, 'store.db');
  const schema = schemasDroppedAfterAll()('reader');
  let sqlite: Store;
  let pool: pg.Pool;
  let statements: PostgresReadStatements;
  let reader: PostgresDocumentReader;

  beforeAll(async () => {
    const writer = await openStore(`sqlite:${file}`, registry);
    await writeDataSet(writer);
    await writer.close();
    sqlite = await openStore(`sqlite:${file}`, registry);

    const spec = parsePostgresSpec(postgresSpec(schema));
    pool = createPool(spec);
    const plan = planPostgresSchema(registry);
    await migrateSchema(pool, schema, plan, registry);
    const resourceIds = await readResourceTypes(pool);
    await copyDocuments(file, pool, plan, resourceIds);
    statements = new PostgresReadStatements(new PostgresCatalog(plan, resourceIds, registry), registry);
    reader = new PostgresDocumentReader(pool, statements);
  }, 120_000);

  afterAll(async () => {
    await sqlite?.close();
    await pool?.end();
    rmSync(folder, { recursive: true, force: true });
  }, COMPARISON_TIMEOUT_MS);

  it(
    'reads documents by id, by natural key and with their authorization',
    async () => {
      let authorized = 0;
      let refused = 0;
      for (const resource of written) {
        const { items } = await sqlite.list(resource, everything);
        expect(items.length, resource.resourceName).toBeGreaterThan(0);
        for (const item of items) {
          expect(await reader.get(resource, item.id)).toEqual(item);
          const body = JSON.parse(item.bodyJson) as Record<string, unknown>;
          const write = documentWrite(resource, body);
          expect(await reader.findByIdentity(write)).toEqual(await sqlite.findByIdentity(write));
          expect(await reader.ownershipTokenOf(item.id)).toBe(await sqlite.ownershipTokenOf(item.id));
          for (const access of accessFilters) {
            const expected = await sqlite.getAuthorized(resource, item.id, access);
            expect(await reader.getAuthorized(resource, item.id, access), resource.resourceName).toEqual(expected);
            if (expected?.authorized) authorized++;
            else refused++;
          }
        }
        expect(await reader.get(resource, 'f'.repeat(32))).toBeUndefined();
      }
      expect(authorized).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    },
    COMPARISON_TIMEOUT_MS,
  );

  it(
    'asks the reads by id or key of one turn together, one statement per resource and access, with the same answers',
    async () => {
      let checkouts = 0;
      const counted = (): void => void checkouts++;
      pool.on('acquire', counted);
      try {
        for (const resource of written) {
          const { items } = await sqlite.list(resource, everything);
          // Every id twice, and one that names nothing.
          const ids = [...items.map((item) => item.id), items[0]!.id, 'f'.repeat(32)];
          const expected = await Promise.all(ids.map((id) => sqlite.get(resource, id)));
          const expectedAuthorized = await Promise.all(
            accessFilters.map((access) => Promise.all(ids.map((id) => sqlite.getAuthorized(resource, id, access)))),
          );
          const writes = [...items, items[0]!].map((item) =>
            documentWrite(resource, JSON.parse(item.bodyJson) as Record<string, unknown>),
          );
          const expectedByKey = await Promise.all(writes.map((write) => sqlite.findByIdentity(write)));
          checkouts = 0;
          const [plain, byKey, ...authorized] = await Promise.all([
            Promise.all(ids.map((id) => reader.get(resource, id))),
            Promise.all(writes.map((write) => reader.findByIdentity(write))),
            ...accessFilters.map((access) => Promise.all(ids.map((id) => reader.getAuthorized(resource, id, access)))),
          ]);
          expect(plain, resource.resourceName).toEqual(expected);
          expect(byKey, resource.resourceName).toEqual(expectedByKey);
          expect(authorized, resource.resourceName).toEqual(expectedAuthorized);
          // One statement per resource, look-up and access (filters whose statement and parameters coincide share
          // one), where one by one it would be one per read.
          expect(checkouts, resource.resourceName).toBeGreaterThan(0);
          expect(checkouts, resource.resourceName).toBeLessThanOrEqual(2 + accessFilters.length);
        }
      } finally {
        pool.off('acquire', counted);
      }
    },
    COMPARISON_TIMEOUT_MS,
  );

  it(
    'lists with filters, ranges, paging and access filters, and partitions the same way',
    async () => {
      for (const resource of written) {
        const all = await sqlite.list(resource, everything);
        const versions = all.items.map((item) => item.changeVersion).sort((a, b) => a - b);
        const middle = versions[Math.floor(versions.length / 2)]!;
        const docIds = all.items.map((item) => item.docId);
        const selections: ListQuery[] = [
          everything,
          { ...everything, limit: 2, offset: 1 },
          { ...everything, limit: 0 },
          { ...everything, totalCount: false, changeVersions: { min: middle } },
          { ...everything, changeVersions: { max: middle } },
          { ...everything, changeVersions: { min: middle, max: middle } },
          { ...everything, docIds: { min: docIds[1] ?? docIds[0]!, max: docIds.at(-1)! } },
          ...fieldFiltersOf(resource, all.items[0]!).map((filter) => ({ ...everything, filters: [filter] })),
          { ...everything, filters: fieldFiltersOf(resource, all.items.at(-1)!) },
        ];
        for (const selection of selections) {
          const queries = [selection, ...accessFilters.map((access) => ({ ...selection, access }))];
          for (const query of queries) {
            expect(await reader.list(resource, query), resource.resourceName).toEqual(
              await sqlite.list(resource, query),
            );
            const partitions = { ...query, count: 2, minimumSize: 1 };
            expect(await reader.partitionStarts(resource, partitions)).toEqual(
              await sqlite.partitionStarts(resource, partitions),
            );
          }
        }
      }
    },
    COMPARISON_TIMEOUT_MS,
  );

  it(
    'answers the change feeds and the newest change version',
    async () => {
      const newest = await sqlite.newestChangeVersion();
      expect(newest).toBeGreaterThan(0);
      expect(await reader.newestChangeVersion()).toBe(newest);
      let entries = 0;
      for (const resource of written.filter(tracksChanges)) {
        const windows = [
          undefined,
          { min: Math.floor(newest / 2) },
          { max: Math.floor(newest / 2) },
          { min: 1, max: 0 },
        ];
        for (const changeVersions of windows) {
          for (const access of [undefined, ...accessFilters]) {
            const query = { offset: 0, limit: 100, totalCount: true, changeVersions, access };
            const deletes = await sqlite.deletes(resource, query);
            expect(await reader.deletes(resource, query), resource.resourceName).toEqual(deletes);
            const keyChanges = await sqlite.keyChanges(resource, query);
            expect(await reader.keyChanges(resource, query), resource.resourceName).toEqual(keyChanges);
            entries += deletes.items.length + keyChanges.items.length;
            const paged = { ...query, limit: 1, offset: 1, totalCount: false };
            expect(await reader.deletes(resource, paged)).toEqual(await sqlite.deletes(resource, paged));
            expect(await reader.keyChanges(resource, paged)).toEqual(await sqlite.keyChanges(resource, paged));
          }
        }
      }
      expect(entries).toBeGreaterThan(0);
    },
    COMPARISON_TIMEOUT_MS,
  );

  it(
    'probes how subjects relate to ed-orgs, several in one statement',
    async () => {
      const relations: SubjectRelation[] = [
        'edOrgDescendant',
        'edOrgAncestor',
        'studentEnrollment',
        'studentResponsibility',
        'staff',
        'contact',
      ];
      const values = [DISTRICT, ...SCHOOLS, 300000001, 's1', 's2', 's3', 's9'];
      const probes = relations.flatMap((relation) =>
        values
          .filter((value) => (typeof value === 'number') === relation.startsWith('edOrg'))
          .map((value) => ({ relation, value })),
      );
      for (const ids of [[DISTRICT], [SCHOOLS[1]!], [], [999]]) {
        const expected = await sqlite.relatedSubjects(ids, probes);
        expect(await reader.relatedSubjects(ids, probes)).toEqual(expected);
        expect(await reader.relatedSubjects(ids, probes.slice(0, 1))).toEqual(expected.slice(0, 1));
      }
      expect(await reader.relatedSubjects([DISTRICT], [])).toEqual([]);
    },
    COMPARISON_TIMEOUT_MS,
  );

  it('reads a snapshot over one connection of its own', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = new PostgresDocumentReader(client, statements);
      const before = await snapshot.list(resources.students, everything);
      await pool.query('DELETE FROM document_owner');
      expect(await reader.ownershipTokenOf(before.items[0]!.id)).toBeUndefined();
      expect(await snapshot.list(resources.students, everything)).toEqual(before);
      expect(await snapshot.ownershipTokenOf(before.items[0]!.id)).toBe(OWNER);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
