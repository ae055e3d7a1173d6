// The PostgreSQL write path under concurrency: commit-ordered change versions (design L12), same-key inserts that race,
// competing If-Match updates, writes issued together (one group-commit batch), and the writer's own outcomes checked
// against the stored rows.
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { PostgresCatalog } from '../../src/store/postgres/catalog.js';
import { parsePostgresSpec } from '../../src/store/postgres/connection-spec.js';
import { PostgresDescriptorCache } from '../../src/store/postgres/descriptor-cache.js';
import { PostgresDocumentWriter } from '../../src/store/postgres/document-writer.js';
import { PostgresEdOrgClosure } from '../../src/store/postgres/edorg-closure.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { PostgresReferenceResolver } from '../../src/store/postgres/reference-resolution.js';
import { migrateSchema, planPostgresSchema, readResourceTypes } from '../../src/store/postgres/schema.js';
import type { Store, UpsertOutcome } from '../../src/store/store.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import { resources, school, seedSampleDescriptors, student, studentSchoolAssociation } from './sample-documents.js';
import { storeError } from './store-assertions.js';

const registry = getModelRegistry();

describePostgres('PostgreSQL document writer', () => {
  const schema = schemasDroppedAfterAll()('writer');
  const plan = planPostgresSchema(registry);
  let pool: pg.Pool;
  let writer: PostgresDocumentWriter;
  const studentTable = plan.layouts.get('ed-fi/students')!.table;

  beforeAll(async () => {
    pool = createPool(parsePostgresSpec(postgresSpec(schema, { poolSize: '12' })));
    await migrateSchema(pool, schema, plan, registry);
    const resourceIds = await readResourceTypes(pool);
    const catalog = new PostgresCatalog(plan, resourceIds, registry);
    const descriptors = new PostgresDescriptorCache(pool, registry, resourceIds);
    await descriptors.load();
    const references = new PostgresReferenceResolver(registry, catalog, descriptors);
    const parts = { catalog, descriptors, references, edOrgs: new PostgresEdOrgClosure(registry) };
    writer = new PostgresDocumentWriter(pool, registry, parts, { maxCascadeDocuments: 100_000 });
    await seedSampleDescriptors(writer as unknown as Store);
  });

  afterAll(async () => {
    await pool?.end();
  });

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
    // The slow writer's commit stalls after it took its version: a trigger sleeps while it stamps its row.
    await pool.query(
      'CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.6); RETURN NEW; END $$',
    );
    await pool.query(
      `CREATE TRIGGER stall_slow_writer AFTER UPDATE OF change_version ON ${studentTable} FOR EACH ROW ` +
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
});
