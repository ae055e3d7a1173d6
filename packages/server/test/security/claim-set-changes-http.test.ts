// Claim sets and application changes seen through HTTP: a client of an imported claim set gets exactly its grants,
// and a redefined claim set or a `clients update` reaches new tokens at once and live ones once the verifier's cache
// TTL has passed (a clock of the test's); through the admin API, at once for the updated application's clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectResponse } from '@edfi-api/framework';
import {
  createBearerVerifier,
  importClaimSets,
  readClaimSetFile,
  updateClient,
  type NewClientOptions,
} from '../../src/security/index.js';
import { localEducationAgency, school } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { BASE_PATH, DATA_PATH, issueToken, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost } from '../support/system-writes.js';

const TTL_MS = 60_000;
const SIS_SECRET = 'a-secret-of-the-sis-client-long-enough';
const EDORGS = 'http://ed-fi.org/ods/identity/claims/domains/educationOrganizations';
const RELATIONSHIPS = 'http://ed-fi.org/ods/identity/claims/domains/relationshipBasedData';

const claimSetJson = (name: string, edOrgActions: readonly string[]) =>
  JSON.stringify({
    claimSets: [
      {
        name,
        resourceClaims: [
          { name: EDORGS, actions: edOrgActions.map((action) => ({ name: action })) },
          { name: RELATIONSHIPS, actions: [{ name: 'Read' }] },
        ],
      },
    ],
  });

const week = {
  weekIdentifier: 'WEEK-1',
  schoolReference: { schoolId: 1001 },
  beginDate: '2021-08-23',
  endDate: '2021-08-27',
  totalInstructionalDays: 5,
};

describeEachStore('claim-set and application changes over HTTP', (stores) => {
  let edfi: EdFiTestServer;
  let clock = Date.now();

  beforeAll(async () => {
    edfi = await startEdFiServer({
      store: await stores.newSpec(),
      enforceAuthorization: true,
      bearerVerifier: (store) => createBearerVerifier(store, { cacheTtlMs: TTL_MS, now: () => clock }),
    });
    await systemPost(edfi.store, edfi.registry, 'localEducationAgencies', localEducationAgency(100));
    await systemPost(edfi.store, edfi.registry, 'schools', school(1001, 100));
    await systemPost(edfi.store, edfi.registry, 'academicWeeks', week);
    await importClaimSets(edfi.store, readClaimSetFile(claimSetJson('School Reader', ['Read'])));
  });
  afterAll(() => edfi.close());

  const tokenFor = (options: NewClientOptions) => issueToken(edfi.server, edfi.store, options);
  const send = (token: string, method: string, path: string, body?: unknown): Promise<InjectResponse> =>
    edfi.server.inject({
      method,
      url: `${DATA_PATH}/ed-fi/${path}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const newToken = async (key: string, secret: string): Promise<string> => {
    const response = await edfi.server.inject({
      method: 'POST',
      url: `${BASE_PATH}/oauth/token`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: key, client_secret: secret }),
    });
    expect(response.status, response.body).toBe(200);
    return response.json<{ access_token: string }>().access_token;
  };
  const weeksSeen = async (token: string) => {
    const response = await send(token, 'GET', 'academicWeeks');
    expect(response.status, response.body).toBe(200);
    return response.json<unknown[]>().length;
  };

  it('grants a client of an imported claim set what it names and nothing else, with the ODS denials', async () => {
    const token = await tokenFor({ key: 'reader', claimSet: 'School Reader', educationOrganizationIds: [100] });
    const schools = await send(token, 'GET', 'schools');
    expect(schools.status).toBe(200);
    expect(schools.json<{ schoolId: number }[]>().map(({ schoolId }) => schoolId)).toEqual([1001]);
    const create = await send(token, 'POST', 'schools', school(1002, 100));
    expect([create.status, create.json()]).toEqual([
      403,
      expect.objectContaining({
        type: 'urn:ed-fi:api:security:authorization:access-denied:action',
        errors: [
          "The API client's assigned claim set (currently 'School Reader') must grant permission of the " +
            "'http://ed-fi.org/odsapi/actions/create' action on one of the following resource claims: " +
            `'http://ed-fi.org/ods/identity/claims/school', '${EDORGS}'.`,
        ],
      }),
    ]);
    const students = await send(token, 'GET', 'students');
    expect([students.status, students.json<{ type: string }>().type]).toEqual([
      403,
      'urn:ed-fi:api:security:authorization:access-denied:resource',
    ]);
  });

  it('applies a re-imported claim set to new tokens at once and to live ones after the cache TTL', async () => {
    await importClaimSets(edfi.store, readClaimSetFile(claimSetJson('Writer', ['Read'])));
    const live = await tokenFor({ key: 'writer', claimSet: 'Writer', educationOrganizationIds: [100] });
    expect((await send(live, 'POST', 'schools', school(1003, 100))).status).toBe(403);
    await importClaimSets(edfi.store, readClaimSetFile(claimSetJson('Writer', ['Read', 'Create'])));
    const fresh = await tokenFor({ key: 'writer-2', claimSet: 'Writer', educationOrganizationIds: [100] });
    expect((await send(fresh, 'POST', 'schools', school(1003, 100))).status).toBe(201);
    expect((await send(live, 'POST', 'schools', school(1004, 100))).status).toBe(403);
    clock += TTL_MS;
    expect((await send(live, 'POST', 'schools', school(1004, 100))).status).toBe(201);
  });

  it('applies clients update (claim set, education organizations) to new tokens at once and live ones after the TTL', async () => {
    const live = await tokenFor({
      key: 'sis',
      secret: SIS_SECRET,
      claimSet: 'SIS Vendor',
      educationOrganizationIds: [100],
    });
    expect(await weeksSeen(live)).toBe(1);
    await updateClient(edfi.store, 'sis', { educationOrganizationIds: [999] });
    expect(await weeksSeen(await newToken('sis', SIS_SECRET))).toBe(0);
    expect(await weeksSeen(live)).toBe(1);
    clock += TTL_MS;
    expect(await weeksSeen(live)).toBe(0);

    await updateClient(edfi.store, 'sis', { claimSet: 'school reader', educationOrganizationIds: [100] });
    expect(await edfi.store.findClientApplication('sis')).toMatchObject({
      claimSetName: 'School Reader',
      educationOrganizationIds: [100],
    });
    expect((await send(await newToken('sis', SIS_SECRET), 'GET', 'students')).status).toBe(403);
    expect((await send(live, 'GET', 'students')).status).toBe(200);
    clock += TTL_MS;
    expect((await send(live, 'GET', 'students')).status).toBe(403);
    expect(await weeksSeen(live)).toBe(1);
  });
});

describe('clients update refusals', () => {
  let edfi: EdFiTestServer;
  beforeAll(async () => {
    edfi = await startEdFiServer({ seed: false });
  });
  afterAll(() => edfi.close());

  it('names what is wrong: an unknown key, an unknown claim set, nothing to change', async () => {
    await issueToken(edfi.server, edfi.store, { key: 'known', claimSet: 'SIS Vendor' });
    await expect(updateClient(edfi.store, 'unknown', { claimSet: 'SIS Vendor' })).rejects.toThrow(
      "No client has the key 'unknown'.",
    );
    await expect(updateClient(edfi.store, 'known', { claimSet: 'Nope' })).rejects.toThrow(/^Unknown claim set 'Nope'/);
    await expect(updateClient(edfi.store, 'known', {})).rejects.toThrow(
      'Nothing to change: give a claim set or education organizations.',
    );
    await expect(updateClient(edfi.store, 'known', { educationOrganizationIds: [-1] })).rejects.toThrow(
      "'-1' is not an education organization id (a positive whole number).",
    );
    expect((await edfi.store.findClientApplication('known'))?.claimSetName).toBe('SIS Vendor');
  });
});
