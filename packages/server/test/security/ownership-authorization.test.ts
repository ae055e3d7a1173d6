// OwnershipBased authorization behind its feature switch (contract §8.4): documents keep their creator's ownership
// token, and a strategy that includes OwnershipBased (AND-ed with the relationship one) shows a client only its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataClient, type DataClient } from '../support/data-client.js';
import { localEducationAgency, school } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost } from '../support/system-writes.js';

const MIXED_CLAIM_SET = 'E2E-RelationshipsWithEdOrgsOnlyMixedStrategyClaimSet';
const week = (identifier: string) => ({
  weekIdentifier: identifier,
  schoolReference: { schoolId: 1001 },
  beginDate: '2021-08-23',
  endDate: '2021-08-27',
  totalInstructionalDays: 5,
});
const denied = (suffix: string) => ({
  type: `urn:ed-fi:api:security:authorization:ownership:${suffix}`,
  title: 'Authorization Denied',
  status: 403,
  detail: 'Access to the requested data could not be authorized. The item is not owned by the caller.',
  correlationId: expect.any(String),
});

async function ownershipTokenOf(edfi: EdFiTestServer, claimSetName: string): Promise<number> {
  const details = await edfi.store.listClientDetails(Date.now());
  const holder = details.find((detail) => detail.application?.claimSetName === claimSetName);
  const ownership = holder && (await edfi.store.findClientOwnership(holder.client.key));
  if (ownership === undefined) throw new Error(`No client of an application with claim set ${claimSetName}`);
  return ownership.ownershipTokenId;
}

describeEachStore('ownership-based authorization', (stores) => {
  describe.each([true, false])('OwnershipBasedAuthorization %s', (enabled) => {
    let edfi: EdFiTestServer;
    let reader: DataClient;
    const weeks: Record<'own' | 'other' | 'unowned', string> = { own: '', other: '', unowned: '' };

    beforeAll(async () => {
      edfi = await startEdFiServer({
        store: await stores.newSpec(),
        enforceAuthorization: true,
        ownershipBasedAuthorization: enabled,
      });
      const post = (endpoint: string, document: object, owner?: number) =>
        systemPost(edfi.store, edfi.registry, endpoint, document, owner);
      await post('localEducationAgencies', localEducationAgency(100));
      await post('schools', school(1001, 100));
      reader = await dataClient(edfi, MIXED_CLAIM_SET, [100]);
      const owner = await ownershipTokenOf(edfi, MIXED_CLAIM_SET);
      weeks.own = await post('academicWeeks', week('WEEK-OWN'), owner);
      weeks.other = await post('academicWeeks', week('WEEK-OTHER'), owner + 1000);
      weeks.unowned = await post('academicWeeks', week('WEEK-UNOWNED'));
    });

    afterAll(() => edfi.close());

    it(
      enabled ? 'lists and reads only the caller’s own items' : 'ignores OwnershipBased, as the ODS does',
      async () => {
        const { items, total } = await reader.list<{ weekIdentifier: string }>('academicWeeks');
        expect(items.map((item) => item.weekIdentifier)).toEqual(
          enabled ? ['WEEK-OWN'] : ['WEEK-OWN', 'WEEK-OTHER', 'WEEK-UNOWNED'],
        );
        expect(total).toBe(items.length);
        expect((await reader.get(`academicWeeks/${weeks.own}`)).status).toBe(200);
        const other = await reader.get(`academicWeeks/${weeks.other}`);
        const unowned = await reader.get(`academicWeeks/${weeks.unowned}`);
        if (!enabled) {
          expect([other.status, unowned.status]).toEqual([200, 200]);
          return;
        }
        expect([other.status, other.json()]).toEqual([403, denied('access-denied:ownership-mismatch')]);
        expect([unowned.status, unowned.json()]).toEqual([403, denied('invalid-data:ownership-uninitialized')]);
      },
    );
  });
});
