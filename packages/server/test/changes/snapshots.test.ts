// Snapshots through HTTP (contract §4.7): `Use-Snapshot: true` GETs read the client's snapshot session, writes that ask
// for one are refused with 405, and a store that keeps none answers the 404 problem.
import { afterEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { expectProblem, WITH_CORRELATION } from '../support/problems.js';
import { student } from '../store/sample-documents.js';
import { idOf } from './support.js';

const SNAPSHOT = { 'use-snapshot': 'true' } as const;

describeEachStore('snapshots', (stores) => {
  let app: EdFiTestServer;

  afterEach(() => app.close());

  async function availableVersions(headers: Record<string, string> = {}): Promise<number> {
    const response = await app.server.inject({
      method: 'GET',
      url: `${BASE_PATH}/changeQueries/v1/availableChangeVersions`,
      headers: { authorization: `Bearer ${app.token}`, ...headers },
    });
    expect(response.status, response.body).toBe(200);
    return response.json<{ newestChangeVersion: number }>().newestChangeVersion;
  }

  describe('Use-Snapshot on GET', () => {
    it('reads one consistent moment across requests until availableChangeVersions begins a new one', async () => {
      app = await startEdFiServer({ store: await stores.newSpec() });
      const first = idOf(await app.data('POST', '/ed-fi/students', { body: student('s1') }));
      const newest = await availableVersions(SNAPSHOT);
      await app.data('PUT', `/ed-fi/students/${first}`, { body: student('s1', 'Grace') });
      const second = idOf(await app.data('POST', '/ed-fi/students', { body: student('s2') }));
      await app.data('DELETE', `/ed-fi/students/${first}`);

      const list = await app.data('GET', '/ed-fi/students', { headers: SNAPSHOT });
      expect(list.json<{ id: string; firstName: string }[]>().map((item) => [item.id, item.firstName])).toEqual([
        [first, 'Ada'],
      ]);
      expect((await app.data('GET', `/ed-fi/students/${first}`, { headers: SNAPSHOT })).status).toBe(200);
      expect((await app.data('GET', `/ed-fi/students/${second}`, { headers: SNAPSHOT })).status).toBe(404);
      expect((await app.data('GET', '/ed-fi/students/deletes', { headers: SNAPSHOT })).body).toBe('[]');
      expect(
        (await app.data('GET', '/ed-fi/students/partitions', { headers: SNAPSHOT })).json<{ pageTokens: string[] }>()
          .pageTokens,
      ).toHaveLength(1);
      // Without the header, the live data.
      expect((await app.data('GET', `/ed-fi/students/${first}`)).status).toBe(404);
      // A new sync begins a new snapshot.
      expect(await availableVersions(SNAPSHOT)).toBeGreaterThan(newest);
      expect((await app.data('GET', '/ed-fi/students', { headers: SNAPSHOT })).json<{ id: string }[]>()).toEqual([
        expect.objectContaining({ id: second }),
      ]);
    });

    it('answers the 404 problem when the store keeps no snapshots', async () => {
      app = await startEdFiServer({ store: await stores.newSpec(), storeOptions: { maxSnapshots: 0 } });
      for (const path of ['/ed-fi/students', `/ed-fi/students/${'1'.repeat(32)}`, '/ed-fi/students/deletes']) {
        expectProblem(await app.data('GET', path, { headers: { ...SNAPSHOT, ...WITH_CORRELATION } }), {
          detail: 'Snapshot not found.',
          type: 'urn:ed-fi:api:not-found',
          title: 'Not Found',
          status: 404,
          errors: ['The snapshot connection for the ODS has not been configured.'],
        });
      }
    });
  });

  describe('Use-Snapshot on writes', () => {
    it('answers 405 with Allow: GET before the body is even read', async () => {
      app = await startEdFiServer({ store: await stores.newSpec() });
      const id = idOf(await app.data('POST', '/ed-fi/students', { body: student('s1') }));
      const writes: [string, string, unknown][] = [
        ['POST', '/ed-fi/students', student('s2')],
        ['POST', '/ed-fi/students', 'not json'],
        ['PUT', `/ed-fi/students/${id}`, student('s1', 'Grace')],
        ['DELETE', `/ed-fi/students/${id}`, undefined],
        ['PUT', '/ed-fi/students', student('s1')],
      ];
      for (const [method, path, body] of writes) {
        const response = await app.data(method, path, { body, headers: { ...SNAPSHOT, ...WITH_CORRELATION } });
        expectProblem(response, {
          detail: 'An attempt was made to modify data in a Snapshot, but this data is read-only.',
          type: 'urn:ed-fi:api:snapshots:method-not-allowed',
          title: 'Method Not Allowed with Snapshots',
          status: 405,
        });
        expect(response.headers.allow).toBe('GET');
      }
      expect((await app.data('GET', `/ed-fi/students/${id}`)).json<{ firstName: string }>().firstName).toBe('Ada');
    });
  });
});
