// OwnershipBased authorization on writes and on the change feeds: clients of a claim set that asks for ownership
// create, see, change and delete only their own items, and a deleted item's tombstone keeps its owner, so `/deletes`
// shows each client only its own deletions (contract §8.4, §8.5). With the feature off the strategy is ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importClaimSets, type NewClientOptions } from '../../src/security/index.js';
import { dataClient, dataClientOf, type DataClient } from '../support/data-client.js';
import { localEducationAgency, school } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { issueToken, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost } from '../support/system-writes.js';

const OWNED = ['OwnershipBased'];
const ownerOnly = {
  name: 'Owner Only',
  resourceClaims: [
    {
      name: 'http://ed-fi.org/ods/identity/claims/academicWeek',
      actions: ['Create', 'Read', 'Update', 'Delete', 'ReadChanges'].map((name) => ({
        name,
        authorizationStrategyOverrides: OWNED,
      })),
    },
  ],
};
const week = (identifier: string, days = 5) => ({
  weekIdentifier: identifier,
  schoolReference: { schoolId: 1001 },
  beginDate: '2021-08-23',
  endDate: '2021-08-27',
  totalInstructionalDays: days,
});

/** A server enforcing authorization, with one school and the `Owner Only` claim set imported. */
async function schoolServer(store: string, ownershipBasedAuthorization: boolean): Promise<EdFiTestServer> {
  const edfi = await startEdFiServer({ store, enforceAuthorization: true, ownershipBasedAuthorization });
  await systemPost(edfi.store, edfi.registry, 'localEducationAgencies', localEducationAgency(100));
  await systemPost(edfi.store, edfi.registry, 'schools', school(1001, 100));
  await importClaimSets(edfi.store, { claimSets: [ownerOnly], defaultAuthorizations: [] });
  return edfi;
}

describeEachStore('ownership on writes and change feeds', (stores) => {
  describe.each([true, false])('OwnershipBasedAuthorization %s', (enabled) => {
    let edfi: EdFiTestServer;
    let alice: DataClient;
    let bob: DataClient;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      edfi = await schoolServer(await stores.newSpec(), enabled);
      alice = await dataClient(edfi, 'Owner Only', []);
      bob = await dataClient(edfi, 'Owner Only', []);
      for (const [client, name] of [
        [alice, 'A-KEPT'],
        [alice, 'A-GONE'],
        [bob, 'B-KEPT'],
        [bob, 'B-GONE'],
      ] as const) {
        const created = await client.send('POST', 'academicWeeks', week(name));
        expect(created.status, created.body).toBe(201);
        ids[name] = created.headers.location!.split('/').at(-1)!;
      }
      for (const [client, name] of [
        [alice, 'A-GONE'],
        [bob, 'B-GONE'],
      ] as const) {
        expect((await client.send('DELETE', `academicWeeks/${ids[name]}`)).status).toBe(204);
      }
    });
    afterAll(() => edfi.close());

    const identifiers = async (client: DataClient) =>
      (await client.list<{ weekIdentifier: string }>('academicWeeks')).items.map((item) => item.weekIdentifier).sort();
    const deletedIdentifiers = async (client: DataClient) => {
      const response = await client.get('academicWeeks/deletes');
      expect(response.status, response.body).toBe(200);
      return response
        .json<{ keyValues: { weekIdentifier: string } }[]>()
        .map((item) => item.keyValues.weekIdentifier)
        .sort();
    };

    it(enabled ? 'lists and reads each client’s own items only' : 'lists every item to both', async () => {
      expect(await identifiers(alice)).toEqual(enabled ? ['A-KEPT'] : ['A-KEPT', 'B-KEPT']);
      expect(await identifiers(bob)).toEqual(enabled ? ['B-KEPT'] : ['A-KEPT', 'B-KEPT']);
      expect((await alice.get(`academicWeeks/${ids['B-KEPT']}`)).status).toBe(enabled ? 403 : 200);
    });

    it(enabled ? 'shows each client only its own tombstones' : 'shows every tombstone to both', async () => {
      expect(await deletedIdentifiers(alice)).toEqual(enabled ? ['A-GONE'] : ['A-GONE', 'B-GONE']);
      expect(await deletedIdentifiers(bob)).toEqual(enabled ? ['B-GONE'] : ['A-GONE', 'B-GONE']);
    });

    it(enabled ? 'refuses changes to another client’s item' : 'lets either client change any item', async () => {
      const update = await alice.send('PUT', `academicWeeks/${ids['B-KEPT']}`, week('B-KEPT', 4));
      expect(update.status).toBe(enabled ? 403 : 204);
      const upsert = await alice.send('POST', 'academicWeeks', week('B-KEPT', 3));
      expect(upsert.status).toBe(enabled ? 403 : 200);
      expect((await bob.send('PUT', `academicWeeks/${ids['B-KEPT']}`, week('B-KEPT', 2))).status).toBe(204);
    });
  });
});

describeEachStore('named ownership tokens', (stores) => {
  let edfi: EdFiTestServer;
  beforeAll(async () => {
    edfi = await schoolServer(await stores.newSpec(), true);
  });
  afterAll(() => edfi.close());

  const clientWith = async (options: NewClientOptions): Promise<DataClient> => {
    const token = await issueToken(edfi.server, edfi.store, { claimSet: 'Owner Only', ...options });
    return dataClientOf(edfi, token);
  };

  it('lets clients given one token share their items, and one given access to it see them beside its own', async () => {
    const first = await clientWith({ ownershipToken: 'District SIS' });
    const second = await clientWith({ ownershipToken: 'District SIS' });
    const auditor = await clientWith({ accessOwnershipTokens: ['District SIS'] });
    const outsider = await clientWith({});
    expect((await first.send('POST', 'academicWeeks', week('SIS-1'))).status).toBe(201);
    expect((await second.send('POST', 'academicWeeks', week('SIS-2'))).status).toBe(201);
    expect((await auditor.send('POST', 'academicWeeks', week('AUDIT'))).status).toBe(201);
    const seen = async (client: DataClient) =>
      (await client.list<{ weekIdentifier: string }>('academicWeeks')).items.map((item) => item.weekIdentifier).sort();
    expect(await seen(first)).toEqual(['SIS-1', 'SIS-2']);
    expect(await seen(second)).toEqual(['SIS-1', 'SIS-2']);
    expect(await seen(auditor)).toEqual(['AUDIT', 'SIS-1', 'SIS-2']);
    expect(await seen(outsider)).toEqual([]);
  });
});
