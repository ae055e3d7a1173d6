import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportStore, type ExportableStore } from '../../src/export/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { temporaryFolder } from '../load/support/convert-files.js';
import { studentDocument } from '../support/documents.js';
import { systemPost } from '../support/system-writes.js';
import { fillSourceStore } from './support/export-fixtures.js';

const registry = getModelRegistry();

function studentIds(folder: string): string[] {
  const lines = readFileSync(path.join(folder, 'ed-fi.students.jsonl'), 'utf8').trimEnd().split('\n');
  return lines.map((line) => (JSON.parse(line) as { studentUniqueId: string }).studentUniqueId).sort();
}

describe('exportStore reads through one snapshot', () => {
  const work = temporaryFolder();
  const spec = `sqlite:${path.join(work, 'source.sqlite')}`;
  let store: Store;

  beforeAll(() => fillSourceStore(spec), 60_000);
  beforeEach(async () => {
    store = await openStore(spec, registry);
  });
  // Closing releases the export's snapshot sessions, whose read transactions would hold back another connection's
  // WAL checkpoint.
  afterEach(() => store.close());

  it('misses a write committed after the snapshot was taken, while the export runs', async () => {
    let written = false;
    // A store whose first snapshot is followed by another writer's commit, before any page is read.
    const busyStore: ExportableStore = {
      list: (resource, query) => store.list(resource, query),
      snapshot: async (session) => {
        const snapshot = await store.snapshot(session);
        if (!written) {
          written = true;
          await systemPost(store, registry, 'students', { ...studentDocument, studentUniqueId: 'written-meanwhile' });
        }
        return snapshot;
      },
    };
    const folder = path.join(work, 'during-writes');
    const summary = await exportStore({ store: busyStore, registry, folder, resources: ['students'] });
    expect(summary).toMatchObject({ consistent: true, documents: 2 });
    expect(studentIds(folder)).toEqual(['604822', '604823']);

    const later = path.join(work, 'later');
    await exportStore({ store, registry, folder: later, resources: ['students'] });
    expect(studentIds(later)).toEqual(['604822', '604823', 'written-meanwhile']);
  });

  it('reads the live store, one page at a time, when the store keeps no snapshots', async () => {
    const withoutSnapshots = await openStore(spec, registry, { maxSnapshots: 0 });
    try {
      const folder = path.join(work, 'live');
      const files: string[] = [];
      const summary = await exportStore({
        store: withoutSnapshots,
        registry,
        folder,
        onResourceFile: ({ file }) => files.push(file),
      });
      expect(summary.consistent).toBe(false);
      expect(files).toEqual(readdirSync(folder).sort());
      expect(summary.files.map(({ file }) => file)).toEqual(files);
    } finally {
      await withoutSnapshots.close();
    }
  });
});
