// The PostgreSQL write path under concurrency: commit-ordered change versions (design L12), same-key inserts that race,
// competing If-Match updates, writes issued together (one group-commit batch), and the writer's own outcomes checked
// against the stored rows.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { PostgresCatalog } from '../../src/store/postgres/catalog.js';
import { parsePostgresSpec } from '../../src/store/postgres/connection-spec.js';
import { PostgresDescriptorCache } from '../../src/store/postgres/descriptor-cache.js';
import {
  DESCRIPTOR_TABLE_VERSION_SQL,
  DESCRIPTOR_VERSION_CHECK_MS,
} from '../../src/store/relational/descriptor-cache.js';
import { PostgresDocumentWriter } from '../../src/store/postgres/document-writer.js';
import { PostgresEdOrgClosure } from '../../src/store/postgres/edorg-closure.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { PostgresReferenceResolver } from '../../src/store/postgres/reference-resolution.js';
import { migrateSchema, planPostgresSchema, readResourceTypes } from '../../src/store/postgres/schema.js';
import { PostgresTableStatistics } from '../../src/store/postgres/table-statistics.js';
import type { Store, UpsertOutcome } from '../../src/store/store.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withStoreConnection } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import {
  resources,
  school,
  seedSampleDescriptors,
  student,
  studentSchoolAssociation,
  uri,
} from './sample-documents.js';
import { storeError } from './store-assertions.js';

const registry = getModelRegistry();

describePostgres('PostgreSQL document writer', () => {
  const schema = schemasDroppedAfterAll()('writer');
  const plan = planPostgresSchema(registry);
  let pool: pg.Pool;
  let writer: PostgresDocumentWriter;
  let descriptors: PostgresDescriptorCache;
  let statistics: PostgresTableStatistics;
  const studentTable = plan.layouts.get('ed-fi/students')!.table;

  beforeAll(async () => {
    pool = createPool(parsePostgresSpec(postgresSpec(schema, { poolSize: '12' })));
    await migrateSchema(pool, schema, plan, registry);
    const resourceIds = await readResourceTypes(pool);
    const catalog = new PostgresCatalog(plan, resourceIds, registry);
    descriptors = new PostgresDescriptorCache(pool, registry, resourceIds);
    await descriptors.load();
    const references = new PostgresReferenceResolver(registry, catalog, descriptors);
    statistics = new PostgresTableStatistics(pool);
    const parts = { catalog, descriptors, references, edOrgs: new PostgresEdOrgClosure(registry), statistics };
    writer = new PostgresDocumentWriter(pool, registry, parts, { maxCascadeDocuments: 100_000 });
    await seedSampleDescriptors(writer as unknown as Store);
  });

  afterAll(async () => {
    await statistics?.close();
    await pool?.end();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Counts the statements the store's connections run from now on that start with `prefix`. */
  const statementsStartingWith = (prefix: string): (() => number) => {
    const query = pg.Client.prototype.query;
    let count = 0;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [config] = args;
      const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
      if (text?.startsWith(prefix)) count++;
      return (query as (...values: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    return () => count;
  };
  /** The statement that locks or inserts new items by natural key (resource-writes.ts). */
  const LOCK_OR_CREATE = 'WITH s AS (';

  const newestChangeVersion = async () =>
    (await pool.query<{ value: number }>("SELECT value FROM meta WHERE key = 'change_version'")).rows[0]!.value;
  const upsertStudent = (studentUniqueId: string, firstName?: string) =>
    writer.upsert(documentWrite(resources.students, student(studentUniqueId, firstName)));

  it('creates, keeps an unchanged document as it is, and stamps each change with the next committed version', async () => {
    const before = await newestChangeVersion();
    const created = await upsertStudent('100', 'Ada');
    expect(created).toMatchObject({ status: 'created', etag: String(before + 1) });
    const unchanged = await upsertStudent('100', 'Ada');
    expect(unchanged).toEqual({ ...created, status: 'unchanged' });
    const updated = await upsertStudent('100', 'Grace');
    expect(updated).toMatchObject({ status: 'updated', id: created.id, etag: String(before + 2) });
    expect(await newestChangeVersion()).toBe(before + 2);
    const key = documentWrite(resources.students, student('100')).identity.key;
    const { rows } = await pool.query(`SELECT change_version, body FROM ${studentTable} WHERE identity_key = $1`, [
      key,
    ]);
    expect(rows).toEqual([{ change_version: before + 2, body: JSON.stringify(student('100', 'Grace')) }]);
  });

  it('records a deletion with its own version and refuses to delete a referenced item', async () => {
    const schoolOutcome = await writer.upsert(documentWrite(resources.schools, school(255901001)));
    await upsertStudent('200');
    const association = await writer.upsert(
      documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation('200', 255901001)),
    );
    const refused = await storeError(writer.delete(resources.schools, schoolOutcome.id), 'dependent-item-exists');
    expect(refused.message).toBe(
      "The requested action cannot be performed because this item is referenced by an existing 'StudentSchoolAssociation' item.",
    );
    await writer.delete(resources.studentSchoolAssociations, association.id);
    const newest = await newestChangeVersion();
    const { rows } = await pool.query('SELECT change_version, kind, uuid FROM tracked_change WHERE uuid = $1', [
      association.id,
    ]);
    expect(rows).toEqual([{ change_version: newest, kind: 'D', uuid: association.id }]);
    await storeError(writer.delete(resources.studentSchoolAssociations, association.id), 'not-found');
  });

  it('fails a write whose item is not the one authorized, and one whose If-Match is stale', async () => {
    const created = await upsertStudent('300');
    const write = documentWrite(resources.students, student('300', 'Changed'));
    const other = documentWrite(resources.students, student('301'));
    await storeError(
      writer.update(created.id, write, { authorizedTarget: { id: created.id, key: other } }),
      'authorized-state-changed',
    );
    await storeError(writer.upsert(write, { authorizedTarget: null }), 'authorized-state-changed');
    await storeError(
      writer.upsert(other, { authorizedTarget: { id: created.id, key: write } }),
      'authorized-state-changed',
    );
    await storeError(writer.update(created.id, write, { ifMatch: '"1"' }), 'optimistic-lock-failed');
    const authorizedTarget = { id: created.id, key: write };
    const updated = await writer.update(created.id, write, { authorizedTarget, ifMatch: `"${created.etag}"` });
    expect(updated.etag).not.toBe(created.etag);
  });

  it('never exposes a version while a smaller one is still in flight (L12)', async () => {
    // The slow writer's commit stalls after it took its version: a trigger sleeps while its row gets that version.
    await pool.query(
      'CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.6); RETURN NEW; END $$',
    );
    await pool.query(
      `CREATE TRIGGER stall_slow_writer AFTER INSERT OR UPDATE OF change_version ON ${studentTable} FOR EACH ROW ` +
        'WHEN (NEW.change_version > 0 AND NEW.body LIKE \'%"Slow"%\') EXECUTE FUNCTION stall()',
    );
    try {
      const synced = await newestChangeVersion();
      const received: number[] = [];
      let watermark = synced;
      let replicating = true;
      // A replica that syncs up to the newest version it is told about, never looking below its watermark again.
      const replica = (async () => {
        while (replicating) {
          const newest = await newestChangeVersion();
          const { rows } = await pool.query<{ change_version: number }>(
            `SELECT change_version FROM ${studentTable} WHERE change_version > $1 AND change_version <= $2`,
            [watermark, newest],
          );
          received.push(...rows.map((row) => row.change_version));
          watermark = newest;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      const slow = upsertStudent('400', 'Slow');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const fast = upsertStudent('401', 'Fast');
      let fastDone = false;
      void fast.then(() => (fastDone = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await newestChangeVersion()).toBe(synced);
      expect(fastDone).toBe(false);
      const [slowOutcome, fastOutcome] = await Promise.all([slow, fast]);
      expect(Number(fastOutcome.etag)).toBe(Number(slowOutcome.etag) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      replicating = false;
      await replica;
      expect(received.sort((a, b) => a - b)).toEqual([Number(slowOutcome.etag), Number(fastOutcome.etag)]);
    } finally {
      await pool.query(`DROP TRIGGER stall_slow_writer ON ${studentTable}; DROP FUNCTION stall()`);
    }
  });

  it('makes one item of parallel POSTs with the same natural key', async () => {
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => upsertStudent('500', `Name${index}`)));
    expect(new Set(outcomes.map((outcome) => outcome.id)).size).toBe(1);
    expect(outcomes.filter((outcome) => outcome.status === 'created')).toHaveLength(1);
    const key = documentWrite(resources.students, student('500')).identity.key;
    const { rows } = await pool.query(`SELECT count(*)::int AS count FROM ${studentTable} WHERE identity_key = $1`, [
      key,
    ]);
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('lets exactly one of concurrent updates with the same If-Match win', async () => {
    const created = await upsertStudent('600');
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        writer.update(created.id, documentWrite(resources.students, student('600', `Rival${index}`)), {
          ifMatch: created.etag,
        }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts.filter((each) => each.status === 'rejected'))
      expect((attempt as PromiseRejectedResult).reason).toMatchObject({ kind: 'optimistic-lock-failed' });
  });

  it('applies writes issued together in order, each succeeding or failing on its own, in consecutive versions', async () => {
    const schoolOutcome = await writer.upsert(documentWrite(resources.schools, school(255901002)));
    await upsertStudent('800');
    await writer.upsert(documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation('800', 255901002)));
    const before = await newestChangeVersion();
    const settled = await Promise.allSettled([
      upsertStudent('801'),
      // Refused by the database (a foreign key) inside the batch's transaction, which goes on.
      writer.delete(resources.schools, schoolOutcome.id),
      upsertStudent('802'),
      writer.upsert(documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation('missing', 255901002))),
      upsertStudent('800', 'Renamed'),
    ]);
    expect(settled.map((result) => result.status === 'rejected')).toEqual([false, true, false, true, false]);
    const reasons = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    expect(reasons).toMatchObject([{ kind: 'dependent-item-exists' }, { kind: 'unresolved-reference' }]);
    const etags = [settled[0], settled[2], settled[4]].map(
      (result) => (result as PromiseFulfilledResult<UpsertOutcome>).value.etag,
    );
    expect(etags).toEqual([before + 1, before + 2, before + 3].map(String));
    expect(await newestChangeVersion()).toBe(before + 3);
    const { rows } = await pool.query<{ change_version: number }>(
      `SELECT change_version FROM ${studentTable} WHERE change_version > $1 ORDER BY change_version`,
      [before],
    );
    expect(rows.map((row) => row.change_version)).toEqual([before + 1, before + 2, before + 3]);
    expect(await writer.upsert(documentWrite(resources.schools, school(255901002)))).toMatchObject({
      status: 'unchanged',
      id: schoolOutcome.id,
    });
  });
  it('writes a new item at the commit even when a later write of its batch read it and was rolled back', async () => {
    const created = upsertStudent('810');
    // Reads the student table inside the batch, which writes the new item ahead, then fails: its savepoint's
    // rollback takes that write back, and the commit writes the item.
    const missing = writer.update(
      '3f1e0c9a-0000-4000-8000-00000000a810',
      documentWrite(resources.students, student('811')),
    );
    const [outcome, refusal] = await Promise.allSettled([created, missing]);
    expect(refusal).toMatchObject({ status: 'rejected', reason: { kind: 'not-found' } });
    const { value } = outcome as PromiseFulfilledResult<UpsertOutcome>;
    expect(value.status).toBe('created');
    const { rows } = await pool.query<{ change_version: number }>(
      `SELECT r.change_version FROM ${studentTable} r JOIN document d ON d.doc_id = r.doc_id WHERE d.uuid = $1`,
      [value.id],
    );
    expect(rows).toEqual([{ change_version: Number(value.etag) }]);
  });

  it('resolves a reference to an item created by a write issued together with it, and one created before', async () => {
    await writer.upsert(documentWrite(resources.schools, school(255901003)));
    await upsertStudent('900');
    const associationOf = (studentUniqueId: string) =>
      writer.upsert(
        documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation(studentUniqueId, 255901003)),
      );
    const [created, before, alongside] = await Promise.all([
      upsertStudent('901'),
      associationOf('900'),
      associationOf('901'),
    ]);
    expect([created.status, before.status, alongside.status]).toEqual(['created', 'created', 'created']);
    const { rows } = await pool.query<{ count: string }>(
      `SELECT count(*) FROM ref_edge e JOIN document d ON d.doc_id = e.to_doc WHERE d.uuid = $1`,
      [created.id],
    );
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('inserts the new items issued together in one statement, each with its own consecutive version', async () => {
    const before = await newestChangeVersion();
    const statements = statementsStartingWith(LOCK_OR_CREATE);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, index) => upsertStudent(`G${index}`)));
    expect(statements()).toBe(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(12).fill('created'));
    expect(new Set(outcomes.map((outcome) => outcome.id)).size).toBe(12);
    expect(outcomes.map((outcome) => outcome.etag)).toEqual(outcomes.map((_, index) => String(before + index + 1)));
    const keys = outcomes.map((_, index) => documentWrite(resources.students, student(`G${index}`)).identity.key);
    const { rows } = await pool.query<{ identity_key: string; uuid: string; body: string }>(
      `SELECT r.identity_key, d.uuid, r.body FROM ${studentTable} r JOIN document d ON d.doc_id = r.doc_id ` +
        'WHERE r.identity_key = ANY ($1::text[])',
      [keys],
    );
    const stored = new Map(rows.map((row) => [row.identity_key, row]));
    keys.forEach((key, index) => {
      expect(stored.get(key)?.uuid).toBe(outcomes[index]!.id);
      expect(JSON.parse(stored.get(key)!.body)).toEqual(student(`G${index}`));
    });
  });

  it('fails a member of a group alone: a missing reference refuses it, the others are inserted together', async () => {
    await writer.upsert(documentWrite(resources.schools, school(255901004)));
    await Promise.all(['H1', 'H2'].map((id) => upsertStudent(id)));
    const statements = statementsStartingWith(LOCK_OR_CREATE);
    const associationOf = (studentUniqueId: string) =>
      writer.upsert(
        documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation(studentUniqueId, 255901004)),
      );
    const settled = await Promise.allSettled([associationOf('H1'), associationOf('nobody'), associationOf('H2')]);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ kind: 'unresolved-reference' });
    // The two resolved associations in one statement; the unresolved one probes its key alone.
    expect(statements()).toBe(1);
  });

  it('runs every member of a group alone when another transaction inserts one of its keys first', async () => {
    const template = await upsertStudent('J0');
    const raced = documentWrite(resources.students, student('J1'));
    const columns = (
      await pool.query<{ column_name: string }>(
        'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ' +
          'ORDER BY ordinal_position',
        [schema, studentTable],
      )
    ).rows.map((row) => row.column_name);
    const copied = columns.map((column) =>
      column === 'doc_id' ? 'd.doc_id' : column === 'identity_key' ? '$2' : `r.${column}`,
    );
    const racedId = '3f1e0c9a-0000-4000-8000-00000000a001';
    await withStoreConnection(postgresSpec(schema), async (client) => {
      // Another node's transaction holds J1's key, not committed yet: a copy of J0's row under J1's key.
      await client.query('BEGIN');
      await client.query(
        `WITH t AS (SELECT r.* FROM ${studentTable} r JOIN document x ON x.doc_id = r.doc_id WHERE x.uuid = $1), ` +
          `d AS (INSERT INTO document (resource_id, uuid) SELECT resource_id, $3 FROM document WHERE uuid = $1 ` +
          'RETURNING doc_id) ' +
          `INSERT INTO ${studentTable} (${columns.join(', ')}) SELECT ${copied.join(', ')} FROM t r, d`,
        [template.id, raced.identity.key, racedId],
      );
      const together = Promise.all([upsertStudent('J1', 'Raced'), upsertStudent('J2')]);
      // The group's commit waits on J1's key until that transaction commits, then fails on it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.query('COMMIT');
      const [first, second] = await together;
      expect(first).toMatchObject({ status: 'updated', id: racedId });
      expect(second).toMatchObject({ status: 'created' });
    });
    const { rows } = await pool.query<{ body: string }>(`SELECT body FROM ${studentTable} WHERE identity_key = $1`, [
      raced.identity.key,
    ]);
    expect(rows.map((row) => JSON.parse(row.body) as unknown)).toEqual([student('J1', 'Raced')]);
  });

  it("checks the descriptor table for other processes' changes once for all the lookups that find it due", async () => {
    const lookup = () => descriptors.exist([{ namespace: 'ed-fi', descriptor: 'SexDescriptor', uri: uri.sex }]);
    const checkDue = () => new Promise((resolve) => setTimeout(resolve, DESCRIPTOR_VERSION_CHECK_MS));
    // Memory first takes in what the earlier tests wrote (a reload reads the version once more).
    await checkDue();
    await lookup();
    await checkDue();
    const checks = statementsStartingWith(DESCRIPTOR_TABLE_VERSION_SQL);
    const lookups = await Promise.all(Array.from({ length: 20 }, lookup));
    expect(lookups).toEqual(Array(20).fill([true]));
    expect(checks()).toBe(1);
  });
});
