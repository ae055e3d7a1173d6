// The synthetic state generator: the CLI writes a small state into a store the server then serves (lists, GET by id,
// documents as generated) and accepts again over HTTP (POST of generated documents validates), and the same seed
// gives the same documents.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { stateDocumentGroups, type DocumentStream } from '../../tools/generate-state/state-documents.js';
import { stateShape } from '../../tools/generate-state/state-shape.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const STUDENTS = 50;
const SEED = 7;
const SERVER_FIELDS = new Set(['id', '_etag', '_lastModifiedDate', 'link']);

function streamsOf(students: number, seed: number): DocumentStream[] {
  return stateDocumentGroups(stateShape(students, seed), getModelRegistry()).flat();
}

/**
 * A document without the server's fields (id, etag, last modified date, reference links) and the empty collections the
 * server echoes, members sorted by name.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, member]) => !SERVER_FIELDS.has(name) && !(Array.isArray(member) && member.length === 0))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, member]) => [name, comparable(member)]),
  );
}

describe('gen-state', () => {
  let folder: string;
  let edfi: EdFiTestServer;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'edfi-gen-state-'));
    const store = `sqlite:${path.join(folder, 'state.sqlite')}`;
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'tools/generate-state/main.ts',
        '--students',
        String(STUDENTS),
        '--store',
        store,
        '--seed',
        String(SEED),
        '--progress',
        'none',
      ],
      { cwd: PACKAGE_DIR, stdio: 'pipe' },
    );
    edfi = await startEdFiServer({ store, seed: false });
  }, 120_000);

  afterAll(async () => {
    await edfi?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('stores every generated document, and the server serves them as generated', async () => {
    for (const stream of streamsOf(STUDENTS, SEED)) {
      const generated = [...stream.documents()];
      const listed = await edfi.data('GET', `/ed-fi/${stream.endpoint}?totalCount=true&limit=500`);
      expect(listed.status, listed.body).toBe(200);
      expect(Number(listed.headers['total-count']), stream.endpoint).toBe(stream.count);
      expect(generated.length, stream.endpoint).toBe(stream.count);
      const items = listed.json<Record<string, unknown>[]>();
      const first = items[0]!;
      const byId = await edfi.data('GET', `/ed-fi/${stream.endpoint}/${String(first.id)}`);
      expect(byId.status).toBe(200);
      const served = new Set(items.map((item) => JSON.stringify(comparable(item))));
      expect(served.has(JSON.stringify(comparable(generated[0]))), stream.endpoint).toBe(true);
    }
  });

  it('accepts generated documents through POST (validated like any client write)', async () => {
    for (const stream of streamsOf(STUDENTS, SEED)) {
      const [document] = stream.documents();
      const response = await edfi.data('POST', `/ed-fi/${stream.endpoint}`, {
        body: JSON.stringify(document),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, `${stream.endpoint} ${response.body}`).toBe(200);
    }
  });

  it('generates realistic volumes: about 20 attendance events and one enrollment per student', () => {
    const counts = new Map(streamsOf(2_000, SEED).map((stream) => [stream.endpoint, stream.count]));
    const attendance =
      (counts.get('studentSchoolAttendanceEvents') ?? 0) + (counts.get('studentSectionAttendanceEvents') ?? 0);
    expect(attendance / 2_000).toBe(20);
    expect(counts.get('studentSchoolAssociations')).toBe(2_000);
    expect(counts.get('schools')).toBeGreaterThan(1);
  });

  it('gives the same documents for the same seed and other documents for another seed', () => {
    const documentsOf = (seed: number) =>
      streamsOf(STUDENTS, seed).map((stream) => JSON.stringify([...stream.documents()]));
    expect(documentsOf(SEED)).toEqual(documentsOf(SEED));
    expect(documentsOf(SEED + 1)).not.toEqual(documentsOf(SEED));
  });
});
