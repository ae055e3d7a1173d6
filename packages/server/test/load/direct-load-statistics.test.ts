import path from 'node:path';
import { expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { resourceTableName } from '../../src/store/relational/table-layout.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withConnection } from '../support/postgres.js';
import { temporaryFolder } from './support/convert-files.js';
import { runLoadCommand } from './support/load-command.js';

function studentsFile(first: number, count: number): Record<string, string> {
  const lines = Array.from({ length: count }, (_, index) =>
    JSON.stringify({
      studentUniqueId: `P${first + index}`,
      firstName: 'Ann',
      lastSurname: 'Lee',
      birthDate: '2010-01-02',
    }),
  );
  return { 'ed-fi.students.jsonl': lines.join('\n') };
}

const STUDENTS_TABLE = resourceTableName(getModelRegistry().getResource('ed-fi', 'students')!);

describePostgres('load --direct into PostgreSQL', () => {
  const schemaName = schemasDroppedAfterAll();

  it('leaves the planner statistics counting the rows it wrote', async () => {
    const schema = schemaName('edfi_load_stats');
    const store = postgresSpec(schema);
    const load = (first: number, count: number) => {
      const folder = temporaryFolder(studentsFile(first, count));
      const failed = path.join(folder, 'failed.jsonl');
      return runLoadCommand('load', folder, '--direct', '--store', store, '--progress', 'none', '--failed', failed);
    };
    await load(0, 1);
    // Autovacuum must not be the one that counts them.
    await withConnection((client) =>
      client.query(`ALTER TABLE "${schema}".${STUDENTS_TABLE} SET (autovacuum_enabled = false)`),
    );
    expect(await load(1, 40)).toContain('40 created, 0 updated, 0 failed.');
    const estimated = await withConnection(async (client) => {
      const { rows } = await client.query<{ reltuples: number }>(
        'SELECT c.reltuples FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2',
        [schema, STUDENTS_TABLE],
      );
      return rows[0]?.reltuples;
    });
    expect(estimated).toBe(41);
  }, 60_000);
});
