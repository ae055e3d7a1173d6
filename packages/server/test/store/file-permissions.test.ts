// A new SQLite store file and its WAL are private to their owner (issue 14, defect 10): mode 0600 whatever the umask.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { documentWrite } from './document-writes.js';
import { resources, student } from './sample-documents.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-permissions-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe.skipIf(process.platform === 'win32')('a new SQLite store file', () => {
  it('is created 0600, and so are its WAL and shared-memory files', async () => {
    const file = path.join(folder, 'new.sqlite');
    const previous = process.umask(0o022);
    try {
      const store = await openStore(`sqlite:${file}`);
      try {
        await store.upsert(documentWrite(resources.students, student('P1')));
        expect({ db: modeOf(file), wal: modeOf(`${file}-wal`), shm: modeOf(`${file}-shm`) }).toEqual({
          db: 0o600,
          wal: 0o600,
          shm: 0o600,
        });
      } finally {
        await store.close();
      }
    } finally {
      process.umask(previous);
    }
  });
});
