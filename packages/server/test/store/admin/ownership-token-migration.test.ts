// The admin schema's ownership-token step on a store that already has applications and documents: a store made by
// the release before it stamped documents with the creating client's application id; after `migrate` each application
// has its token under that id, so under OwnershipBased its clients still read exactly their documents.
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { createClient } from '../../../src/security/index.js';
import { createStore } from '../../../src/store/index.js';
import { dataClientOf } from '../../support/data-client.js';
import { localEducationAgency, school } from '../../support/district-documents.js';
import { describeEachStore, type StoreUnderTest } from '../../support/each-store.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../../support/edfi-server.js';
import { withStoreConnection } from '../../support/postgres.js';
import { systemPost } from '../../support/system-writes.js';

const MIXED_CLAIM_SET = 'E2E-RelationshipsWithEdOrgsOnlyMixedStrategyClaimSet';
const SECRET = 'a-migrated-client-secret-long-enough';
const CLIENTS = ['first', 'second'] as const;

/** The admin schema version before the ownership-token step, per store. */
const VERSION_BEFORE_TOKENS: Record<StoreUnderTest['name'], number> = { SQLite: 4, PostgreSQL: 3 };

/** Takes the admin tables back to the version before the step: no token tables or columns, nor later steps' tables. */
async function removeOwnershipTokens(stores: StoreUnderTest, spec: string): Promise<void> {
  const sql = `DROP TABLE extension_model;
    DROP TABLE client_ownership_token;
    ALTER TABLE client DROP COLUMN creator_ownership_token_id;
    ALTER TABLE application DROP COLUMN ownership_token_id;
    DROP TABLE ownership_token;
    UPDATE meta SET value = ${VERSION_BEFORE_TOKENS[stores.name]} WHERE key = 'admin_schema_version';`;
  if (stores.name === 'SQLite') {
    const db = new Database(spec.slice('sqlite:'.length));
    db.exec(sql);
    db.close();
    return;
  }
  await withStoreConnection(spec, (client) => client.query(sql));
}

const week = (identifier: string) => ({
  weekIdentifier: identifier,
  schoolReference: { schoolId: 1001 },
  beginDate: '2021-08-23',
  endDate: '2021-08-27',
  totalInstructionalDays: 5,
});

async function tokenOf(edfi: EdFiTestServer, key: string): Promise<string> {
  const response = await edfi.server.inject({
    method: 'POST',
    url: `${BASE_PATH}/oauth/token`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: key, client_secret: SECRET }),
  });
  expect(response.status, response.body).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

describeEachStore('the ownership-token step of the admin schema', (stores) => {
  let edfi: EdFiTestServer | undefined;
  afterEach(async () => {
    await edfi?.close();
    edfi = undefined;
  });

  it("gives each existing application its token, under which its documents stay its clients' own", async () => {
    const spec = await stores.newSpec({ shared: true });
    edfi = await startEdFiServer({ store: spec });
    const post = (endpoint: string, document: object, owner?: number) =>
      systemPost(edfi!.store, edfi!.registry, endpoint, document, owner);
    await post('localEducationAgencies', localEducationAgency(100));
    await post('schools', school(1001, 100));
    const applicationIds: Record<string, number> = {};
    const weeks: Record<string, string> = {};
    for (const key of CLIENTS) {
      await createClient(edfi.store, {
        key,
        secret: SECRET,
        claimSet: MIXED_CLAIM_SET,
        educationOrganizationIds: [100],
      });
      applicationIds[key] = (await edfi.store.findClientApplication(key))!.applicationId;
      weeks[key] = await post('academicWeeks', week(`WEEK-${key}`), applicationIds[key]);
    }
    await edfi.close();
    await removeOwnershipTokens(stores, spec);
    const migrating = createStore(spec);
    try {
      expect(await migrating.migrate()).toBe('upgraded');
    } finally {
      await migrating.close();
    }

    edfi = await startEdFiServer({
      store: spec,
      enforceAuthorization: true,
      ownershipBasedAuthorization: true,
      seed: false,
    });
    const listed = new Map((await edfi.store.listClientDetails(Date.now())).map((each) => [each.client.key, each]));
    for (const key of CLIENTS) {
      expect(await edfi.store.findClientOwnership(key)).toEqual({
        ownershipTokenId: applicationIds[key],
        accessibleOwnershipTokenIds: [applicationIds[key]],
      });
      expect(listed.get(key)!.ownershipTokens).toEqual({
        creator: `application ${applicationIds[key]}`,
        accessible: [],
      });
      const reader = dataClientOf(edfi, await tokenOf(edfi, key));
      const { items } = await reader.list<{ weekIdentifier: string }>('academicWeeks');
      expect(items.map((item) => item.weekIdentifier)).toEqual([`WEEK-${key}`]);
      expect((await reader.get(`academicWeeks/${weeks[key]}`)).status).toBe(200);
      const other = CLIENTS.find((each) => each !== key)!;
      expect((await reader.get(`academicWeeks/${weeks[other]}`)).status).toBe(403);
    }

    // Tokens made after the step take ids no application's token has.
    await createClient(edfi.store, { key: 'later', claimSet: MIXED_CLAIM_SET, ownershipToken: 'Later' });
    const later = await edfi.store.findClientOwnership('later');
    expect(Object.values(applicationIds)).not.toContain(later!.ownershipTokenId);
  });
});
