// The PostgreSQL store writes each resource row once per change: a new item is inserted with its version and a
// changed one updated with it, by the commit (change-stamps.ts), instead of written first and stamped afterwards (a
// second write of the row and of every index entry, `change_version` being indexed). Seen in the table's own
// counters, which each connection reports to the statistics when it ends.
import { expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { planPostgresSchema } from '../../src/store/postgres/schema.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withConnection } from '../support/postgres.js';
import { documentWrite } from './document-writes.js';
import { resources, seedSampleDescriptors, student } from './sample-documents.js';
import { tableCountersAfter } from './table-counters.js';

describePostgres('PostgreSQL rows written once', () => {
  const newSchema = schemasDroppedAfterAll();
  const studentTable = planPostgresSchema(getModelRegistry()).layouts.get('ed-fi/students')!.table;

  it('inserts new items with their versions and updates a changed item once, never stamping a row afterwards', async () => {
    const schema = newSchema('once');
    // One connection: the table's counters arrive in one report, when it ends.
    const store = new PostgresStore(postgresSpec(schema, { poolSize: '1' }));
    const versions = new Map<string, number>();
    try {
      await store.migrate();
      await store.open();
      await seedSampleDescriptors(store);
      const write = (id: string, firstName?: string) => documentWrite(resources.students, student(id, firstName));
      // Issued together: one group, inserted by one statement and written by one commit.
      const created = await Promise.all(Array.from({ length: 20 }, (_, index) => store.upsert(write(`W${index}`))));
      expect(created.every((outcome) => outcome.status === 'created')).toBe(true);
      const alone = await store.upsert(write('W20'));
      const updated = await store.update(created[0]!.id, write('W0', 'Renamed'));
      const posted = await store.upsert(write('W1', 'Changed'));
      expect(posted.status).toBe('updated');
      await store.delete(resources.students, created[2]!.id);
      for (const outcome of [...created.slice(3), alone, updated, posted])
        versions.set(outcome.id, Number(outcome.etag));
    } finally {
      await store.close();
    }
    // Each row holds the version its write answered, written with it.
    const { rows } = await withConnection((client) =>
      client.query<{ uuid: string; change_version: number }>(
        `SELECT d.uuid, r.change_version::int AS change_version FROM "${schema}".${studentTable} r ` +
          `JOIN "${schema}".document d ON d.doc_id = r.doc_id`,
      ),
    );
    expect(new Map(rows.map((row) => [row.uuid, row.change_version]))).toEqual(versions);
    // 21 inserts, the two changes' updates and the delete: no stamp.
    expect(
      await tableCountersAfter(schema, studentTable, 21, {
        inserted: 'n_tup_ins',
        updated: 'n_tup_upd',
        deleted: 'n_tup_del',
      }),
    ).toEqual({ inserted: 21, updated: 2, deleted: 1 });
  }, 90_000);

  it('writes values holding quotes, backslashes and dollar signs as they are, in new and changed rows', async () => {
    const schema = newSchema('literals');
    const store = new PostgresStore(postgresSpec(schema));
    const names = ["O'Brien", 'back\\slash', "\\'", "E'x'", '$$ $q$ \\n', '"quoted"', 'línea\nnueva ✓'];
    let changedId = '';
    try {
      await store.migrate();
      await store.open();
      await seedSampleDescriptors(store);
      const write = (index: number, firstName: string) =>
        documentWrite(resources.students, student(`L${index}`, firstName));
      const created = await Promise.all(names.map((name, index) => store.upsert(write(index, name))));
      expect(created.every((outcome) => outcome.status === 'created')).toBe(true);
      // A change keeping the key: the commit writes the row's new values.
      const changed = await store.upsert(write(0, names.join('|')));
      expect(changed.status).toBe('updated');
      changedId = changed.id;
    } finally {
      await store.close();
    }
    const { rows } = await withConnection((client) =>
      client.query<{ uuid: string; first_name: string; body: string }>(
        `SELECT d.uuid, r.first_name, r.body FROM "${schema}".${studentTable} r ` +
          `JOIN "${schema}".document d ON d.doc_id = r.doc_id ORDER BY r.student_unique_id`,
      ),
    );
    const expected = [names.join('|'), ...names.slice(1)];
    expect(rows.map((row) => row.first_name)).toEqual(expected);
    expect(rows.map((row) => (JSON.parse(row.body) as { firstName: string }).firstName)).toEqual(expected);
    expect(rows[0]!.uuid).toBe(changedId);
  }, 90_000);
});
