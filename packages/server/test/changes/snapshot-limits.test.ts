// Snapshot limits (issue 14, defect 3): a snapshot is released once older than its maximum age (both stores) or, on
// SQLite, once the WAL it pins passes its bound; the session's next snapshot read answers the contract's 404, the WAL
// is checkpointed, and availableChangeVersions starts a new snapshot.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { student } from '../store/sample-documents.js';

const SNAPSHOT = { 'use-snapshot': 'true' } as const;
const EXPIRED_REASON =
  'The snapshot was released: it reached its maximum age or held back too much of the database. ' +
  'Call availableChangeVersions with Use-Snapshot: true to start a new one.';

let app: EdFiTestServer | undefined;
afterEach(() => app?.close());

async function renewSnapshot(): Promise<void> {
  const response = await app!.server.inject({
    method: 'GET',
    url: `${BASE_PATH}/changeQueries/v1/availableChangeVersions`,
    headers: { authorization: `Bearer ${app!.token}`, ...SNAPSHOT },
  });
  expect(response.status, response.body).toBe(200);
}

async function expectExpired(): Promise<void> {
  const response = await app!.data('GET', '/ed-fi/students', { headers: SNAPSHOT });
  expect(response.status, response.body).toBe(404);
  expect(response.json()).toMatchObject({
    detail: 'Snapshot not found.',
    type: 'urn:ed-fi:api:not-found',
    errors: [EXPIRED_REASON],
  });
}

describeEachStore('snapshot maximum age', (stores) => {
  it('releases a snapshot past its age however much it is used, and says so once', async () => {
    const maxAgeMs = 1_000;
    app = await startEdFiServer({ store: await stores.newSpec(), storeOptions: { snapshotMaxAgeMs: maxAgeMs } });
    const opened = Date.now();
    await renewSnapshot();
    // Used all along its life (well inside the age, whatever a request costs).
    while (Date.now() < opened + maxAgeMs / 2) {
      expect((await app.data('GET', '/ed-fi/students', { headers: SNAPSHOT })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, opened + maxAgeMs + 200 - Date.now()));
    await expectExpired();
    await renewSnapshot();
    expect((await app.data('GET', '/ed-fi/students', { headers: SNAPSHOT })).status).toBe(200);
  });
});

describe('snapshot WAL bound (SQLite)', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'edfi-snapshot-wal-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('releases the oldest snapshot once the WAL passes the bound, then checkpoints', async () => {
    const file = path.join(folder, 'store.sqlite');
    const maxWal = 512 * 1024;
    app = await startEdFiServer({ store: `sqlite:${file}`, storeOptions: { snapshotMaxWalBytes: maxWal } });
    await renewSnapshot();
    for (let index = 0; index < 400 && statSync(`${file}-wal`).size <= maxWal; index++) {
      expect((await app.data('POST', '/ed-fi/students', { body: student(`w${index}`) })).status).toBe(201);
    }
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(maxWal);
    await expectExpired();
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    await renewSnapshot();
    expect((await app.data('GET', '/ed-fi/students', { headers: SNAPSHOT })).status).toBe(200);
  });
});
