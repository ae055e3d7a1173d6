// `migrate` on a store made for an older model: a model change that only adds nullable typed columns (here the
// ResponsibilitySchoolId subject of disciplineActions, as the model gained it) is applied in place — the column added,
// filled from the stored bodies, indexed — and the store then opens, filters and authorizes on it; any other difference
// is refused, naming the table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModelData, ModelRegistry, type ModelData } from '../../src/model/index.js';
import { seedNewStore } from '../../src/setup/first-start.js';
import { createStore, openStore, type Store } from '../../src/store/index.js';
import { runCli } from '../cli/support.js';
import { dataClient } from '../support/data-client.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { startEdFiServer } from '../support/edfi-server.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withStoreConnection } from '../support/postgres.js';
import { systemPost } from '../support/system-writes.js';

const LEA = 255901;
const SCHOOL = 255901001;
const SECOND_SCHOOL = 255901044;
const TABLE = 'r_edfi_discipline_actions';
const COLUMN = 'responsibility_school_reference_school_id';
/** Discipline actions at SCHOOL: more than one backfill batch (BACKFILL_BATCH_ROWS, 1,000). */
const AT_SCHOOL = 1100;

type DisciplineActions = ModelData['resources']['resources'][number];

/** The committed model with disciplineActions changed: a model as another release had it. */
function modelWithDisciplineActions(change: (resource: DisciplineActions) => void): ModelRegistry {
  const data = structuredClone(loadModelData());
  change(data.resources.resources.find((each) => each.endpoint === 'disciplineActions')!);
  return new ModelRegistry(data);
}

// PostgreSQL keeps query fields in columns too: a release without the column had neither the subject nor the field.
const withoutResponsibilitySchool = modelWithDisciplineActions((resource) => {
  const { securableElements } = resource;
  resource.securableElements = {
    ...securableElements,
    educationOrganizations: securableElements.educationOrganizations.filter(
      (each) => each.name !== 'ResponsibilitySchoolId',
    ),
  };
  delete resource.queryFields.responsibilitySchoolId;
});

const disciplineAction = (identifier: string, schoolId: number) => ({
  disciplineActionIdentifier: identifier,
  disciplineDate: '2021-10-01',
  disciplines: [{ disciplineDescriptor: 'uri://ed-fi.org/DisciplineDescriptor#Community Service' }],
  studentReference: { studentUniqueId: 'S-1' },
  responsibilitySchoolReference: { schoolId },
});

/** A store made and filled by the given model (as an older release would have). */
async function storeOfModel(
  spec: string,
  registry: ModelRegistry,
  fill: (store: Store) => Promise<void>,
): Promise<void> {
  const store = createStore(spec, registry);
  try {
    await store.migrate();
    await store.open();
    await seedNewStore(store, registry, 'descriptors');
    await fill(store);
  } finally {
    await store.close();
  }
}

interface Backend {
  newSpec(): string;
  /** Rows of a query on the store's database (its schema on PostgreSQL). */
  query<T>(spec: string, sql: string): Promise<T[]>;
  /** Selects the definition of each index of the discipline actions table. */
  readonly indexesSql: string;
  /** The names of the discipline actions table's columns. */
  columns(spec: string): Promise<string[]>;
}

/** The columns the discipline actions table has a one-column index on. */
async function indexedColumns(backend: Backend, spec: string): Promise<string[]> {
  const indexes = await backend.query<{ definition: string | null }>(spec, backend.indexesSql);
  return indexes.flatMap((index) => /\((\w+)\)$/.exec(index.definition ?? '')?.[1] ?? []);
}

/** `serve` without --migrate refuses the store, pointing at `edfi-api migrate`, which then upgrades it. */
async function expectRefusedThenMigrated(spec: string): Promise<void> {
  await expect(openStore(spec)).rejects.toMatchObject({
    name: 'StoreSchemaError',
    status: 'outdated',
    message: expect.stringMatching(/run `edfi-api migrate`/) as unknown,
  });
  const migrated = await runCli(['migrate', '--store', spec]);
  expect(migrated.stderr).toBe('');
  expect(migrated.stdout).toMatch(/upgraded the schema/);
}

function describeUpgrade(name: string, backend: Backend): void {
  describe(`additive schema upgrade (${name})`, { timeout: 120_000 }, () => {
    it('adds the column, fills it from the stored bodies, indexes it, then opens, filters and authorizes on it', async () => {
      const spec = backend.newSpec();
      await storeOfModel(spec, withoutResponsibilitySchool, async (store) => {
        const post = (endpoint: string, document: object) =>
          systemPost(store, withoutResponsibilitySchool, endpoint, document);
        await post('localEducationAgencies', localEducationAgency(LEA));
        await post('schools', school(SCHOOL, LEA));
        await post('schools', school(SECOND_SCHOOL, LEA));
        await post('students', student('S-1'));
        await post('studentSchoolAssociations', enrollment('S-1', SCHOOL));
        await post('studentSchoolAssociations', enrollment('S-1', SECOND_SCHOOL));
        await post('disciplineActions', disciplineAction('DA-X', SECOND_SCHOOL));
        // More rows than one backfill batch reads.
        const identifiers = Array.from({ length: AT_SCHOOL }, (_, at) => `DA-${at + 1}`);
        for (let start = 0; start < AT_SCHOOL; start += 100)
          await Promise.all(
            identifiers
              .slice(start, start + 100)
              .map((identifier) => post('disciplineActions', disciplineAction(identifier, SCHOOL))),
          );
      });
      expect(await backend.columns(spec)).not.toContain(COLUMN);

      await expectRefusedThenMigrated(spec);

      const rows = await backend.query<Record<string, unknown>>(
        spec,
        `SELECT ${COLUMN} AS school, body FROM ${TABLE} ORDER BY doc_id`,
      );
      const posted = rows.map(
        (row) => (JSON.parse(String(row.body)) as ReturnType<typeof disciplineAction>).responsibilitySchoolReference,
      );
      expect(rows.map((row) => Number(row.school))).toEqual(posted.map((reference) => reference.schoolId));
      expect(rows.filter((row) => Number(row.school) === SCHOOL)).toHaveLength(AT_SCHOOL);
      expect(rows.filter((row) => Number(row.school) === SECOND_SCHOOL)).toHaveLength(1);
      expect(await indexedColumns(backend, spec)).toContain(COLUMN);

      const again = createStore(spec);
      try {
        expect(await again.schemaStatus()).toBe('current');
        expect(await again.migrate()).toBe('current');
      } finally {
        await again.close();
      }

      const edfi = await startEdFiServer({ store: spec, seed: false, enforceAuthorization: true });
      try {
        const district = await dataClient(edfi, 'SIS Vendor', [LEA]);
        const bySchool = (schoolId: number) =>
          district.list<{ disciplineActionIdentifier: string }>(`disciplineActions?responsibilitySchoolId=${schoolId}`);
        expect((await bySchool(SCHOOL)).total).toBe(AT_SCHOOL);
        // The upgraded table (its new column last) takes writes as a new one does.
        const created = await district.send('POST', 'disciplineActions', disciplineAction('DA-Y', SECOND_SCHOOL));
        expect(created.status, created.body).toBe(201);
        const atSecond = await bySchool(SECOND_SCHOOL);
        expect(atSecond.items.map((item) => item.disciplineActionIdentifier)).toEqual(['DA-X', 'DA-Y']);
        const schoolClient = await dataClient(edfi, 'SIS Vendor', [SECOND_SCHOOL]);
        const { items } = await schoolClient.list<{ disciplineActionIdentifier: string }>('disciplineActions');
        expect(items.map((item) => item.disciplineActionIdentifier)).toEqual(['DA-X', 'DA-Y']);
      } finally {
        await edfi.close();
      }
    });

    it('refuses a table whose columns the model no longer has, naming it, and changes nothing', async () => {
      const spec = backend.newSpec();
      const withLengthSubject = modelWithDisciplineActions((resource) => {
        resource.securableElements = {
          ...resource.securableElements,
          educationOrganizations: [{ name: 'ActualDisciplineActionLength', path: '$.actualDisciplineActionLength' }],
        };
        delete resource.queryFields.responsibilitySchoolId;
      });
      const withoutLengthField = modelWithDisciplineActions((resource) => {
        delete resource.queryFields.actualDisciplineActionLength;
      });
      await storeOfModel(spec, withLengthSubject, async (store) => {
        await systemPost(store, withLengthSubject, 'localEducationAgencies', localEducationAgency(LEA));
      });
      const store = createStore(spec, withoutLengthField);
      try {
        await expect(store.migrate()).rejects.toThrow(
          `Table ${TABLE} does not match this model (actual_discipline_action_length is not in this model)`,
        );
        expect(await store.schemaStatus()).toBe('outdated');
      } finally {
        await store.close();
      }
      expect(await backend.columns(spec)).not.toContain(COLUMN);
      expect(await backend.columns(spec)).toContain('actual_discipline_action_length');
      expect(await indexedColumns(backend, spec)).not.toContain(COLUMN);
    });
  });
}

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-schema-upgrade-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

describeUpgrade('SQLite', {
  newSpec: () => `sqlite:${path.join(folder, `store-${++files}.sqlite`)}`,
  query<T>(spec: string, sql: string) {
    const db = new Database(spec.slice('sqlite:'.length), { readonly: true });
    try {
      return Promise.resolve(db.prepare(sql).all() as T[]);
    } finally {
      db.close();
    }
  },
  indexesSql: `SELECT sql AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = '${TABLE}'`,
  async columns(spec) {
    return (await this.query<{ name: string }>(spec, `SELECT name FROM pragma_table_info('${TABLE}')`)).map(
      (column) => column.name,
    );
  },
});

describePostgres('PostgreSQL', () => {
  const newSchema = schemasDroppedAfterAll();
  const query = <T>(spec: string, sql: string) =>
    withStoreConnection(spec, async (client) => {
      return (await client.query(sql)).rows as T[];
    });
  describeUpgrade('PostgreSQL', {
    newSpec: () => postgresSpec(newSchema('edfi_upgrade')),
    query,
    async columns(spec) {
      const sql = `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '${TABLE}'`;
      return (await query<{ name: string }>(spec, sql)).map((column) => column.name);
    },
    indexesSql: `SELECT indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema() AND tablename = '${TABLE}'`,
  });

  // The securables indexes with the doc id in their entries, whatever their names (long ones are shortened).
  const docIdIndexesSql =
    'SELECT indexname AS name, indexdef AS definition FROM pg_indexes ' +
    "WHERE schemaname = current_schema() AND indexdef LIKE '% INCLUDE (doc_id)' ORDER BY indexname";

  it('adds the securables indexes with the doc id to a store of an earlier release', { timeout: 120_000 }, async () => {
    const spec = postgresSpec(newSchema('edfi_upgrade'));
    const store = createStore(spec);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
    const planned = await query<{ name: string; definition: string }>(spec, docIdIndexesSql);
    expect(planned.map((index) => index.name)).toContain('r_edfi_student_school_attendance_events_securables_doc_ids');
    // The store as the earlier release made it.
    await query(
      spec,
      [
        ...planned.map((index) => `DROP INDEX ${index.name}`),
        "UPDATE meta SET text_value = 'an earlier release' WHERE key = 'schema_fingerprint'",
      ].join(';\n'),
    );

    await expectRefusedThenMigrated(spec);
    expect(await query(spec, docIdIndexesSql)).toEqual(planned);
    const again = createStore(spec);
    try {
      expect(await again.schemaStatus()).toBe('current');
    } finally {
      await again.close();
    }
  });
});
