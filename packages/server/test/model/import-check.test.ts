import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffModelFiles, serialise } from '../../tools/import/model-files.js';
import { itWithEdfiSource } from '../support/edfi-source.js';
import { describePostgres, POSTGRES_TEST_URL } from '../support/postgres.js';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const modelDir = path.join(packageRoot, 'model');

// The import replays the ODS security scripts on PostgreSQL, so it runs where the test database answers.
describePostgres('import-model --check', () => {
  itWithEdfiSource(
    'finds the committed model equal to a fresh import',
    () => {
      const result = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'tools/import-model.ts', '--check', '--postgres', POSTGRES_TEST_URL],
        { cwd: packageRoot, encoding: 'utf8' },
      );
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    },
    120_000,
  );
});

describe('model file differences', () => {
  it('reports a file that differs, naming the line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-check-'));
    try {
      cpSync(modelDir, dir, { recursive: true });
      const fresh = JSON.parse(readFileSync(path.join(modelDir, 'school-years.json'), 'utf8')) as unknown;
      writeFileSync(path.join(dir, 'school-years.json'), serialise(fresh).replace('"1990-1991"', '"edited"'));
      const differences = diffModelFiles(dir, { 'school-years.json': fresh, 'claims.json': {} });
      expect(differences).toHaveLength(2);
      expect(differences[0]).toMatch(/^school-years\.json differs from a fresh import:\n {2}line 6: .*edited/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
