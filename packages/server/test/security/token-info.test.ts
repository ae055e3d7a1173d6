// POST /oauth/token_info (contract §2.6) on the full app, for a client whose education organizations are stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSetPolicy, createClient, type CreatedClient } from '../../src/security/index.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { leaDocument, schoolDocument } from '../support/documents.js';
import { BASE, requestToken } from './support.js';

const seaDocument = {
  stateEducationAgencyId: 255950,
  nameOfInstitution: 'Texas Education Agency',
  categories: [
    {
      educationOrganizationCategoryDescriptor:
        'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#State Education Agency',
    },
  ],
};

let app: EdFiTestServer;
let vendor: CreatedClient;
let vendorToken: string;

async function tokenOf(client: CreatedClient, fields: Record<string, string> = {}): Promise<string> {
  const response = await requestToken(app.server, { client_id: client.key, client_secret: client.secret, ...fields });
  expect(response.status).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

function tokenInfo(bearer: string | undefined, body: unknown, contentType = 'application/json') {
  return app.server.inject({
    method: 'POST',
    url: `${BASE}/oauth/token_info`,
    headers: { 'content-type': contentType, ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) },
    body,
  });
}

beforeAll(async () => {
  app = await startEdFiServer();
  for (const [endpoint, document] of [
    ['stateEducationAgencies', seaDocument],
    ['localEducationAgencies', { ...leaDocument, stateEducationAgencyReference: { stateEducationAgencyId: 255950 } }],
    ['schools', schoolDocument],
  ] as const) {
    expect((await app.data('POST', `/ed-fi/${endpoint}`, { body: document })).status).toBe(201);
  }
  vendor = await createClient(app.store, {
    key: 'sisVendorKey',
    claimSet: 'SIS Vendor',
    educationOrganizationIds: [255901001, 255901, 999999],
    namespacePrefixes: ['uri://ed-fi.org', 'uri://gbisd.edu'],
    profiles: ['Test-Profile-Resource-ReadOnly'],
  });
  vendorToken = await tokenOf(vendor);
}, 60_000);
afterAll(() => app.close());

describe('POST /oauth/token_info', () => {
  it('describes the token in the ODS shape and property order, with stored edorgs and their ancestors', async () => {
    const response = await tokenInfo(vendorToken, { token: vendorToken });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache, no-store');
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body)).toEqual([
      'active',
      'client_id',
      'namespace_prefixes',
      'education_organizations',
      'assigned_profiles',
      'claim_set',
      'resources',
      'services',
    ]);
    expect(JSON.stringify(body.education_organizations)).toBe(
      JSON.stringify([
        {
          education_organization_id: 255901,
          name_of_institution: 'Grand Bend ISD',
          type: 'edfi.LocalEducationAgency',
          state_education_agency_id: 255950,
        },
        {
          education_organization_id: 255901001,
          name_of_institution: 'Grand Bend High School',
          type: 'edfi.School',
          local_education_agency_id: 255901,
          state_education_agency_id: 255950,
        },
      ]),
    );
    expect(body).toMatchObject({
      active: true,
      client_id: 'sisVendorKey',
      namespace_prefixes: ['uri://ed-fi.org', 'uri://gbisd.edu'],
      assigned_profiles: ['Test-Profile-Resource-ReadOnly'],
      claim_set: { name: 'SIS Vendor' },
      services: [],
    });
  });

  it('lists every resource the claim set grants anything on, with the granted operations in order', async () => {
    const { resources } = (await tokenInfo(vendorToken, { token: vendorToken })).json<{
      resources: { resource: string; operations: string[] }[];
    }>();
    const byPath = new Map(resources.map((entry) => [entry.resource, entry.operations]));
    expect(Object.keys(resources[0]!)).toEqual(['resource', 'operations']);
    expect(byPath.get('/ed-fi/studentSchoolAssociations')).toEqual(['Create', 'Read', 'Update', 'Delete']);
    expect(byPath.get('/ed-fi/schools')).toEqual(['Read']);
    expect(byPath.get('/ed-fi/schoolYearTypes')).toEqual(['Read']);
    const policy = claimSetPolicy('SIS Vendor');
    for (const resource of app.registry.allResources) {
      const granted = policy.grantedActions(resource);
      expect(byPath.get(`/${resource.namespace}/${resource.endpoint}`)).toEqual(
        granted.length > 0 ? granted : undefined,
      );
    }
  });

  it('describes a scoped token with its single education organization, from a form body', async () => {
    const scoped = await tokenOf(vendor, { scope: '255901001' });
    const response = await tokenInfo(scoped, `token=${scoped}`, 'application/x-www-form-urlencoded');
    expect(response.status).toBe(200);
    const { education_organizations } = response.json<{ education_organizations: { type: string }[] }>();
    expect(education_organizations.map((each) => each.type)).toEqual(['edfi.School']);
  });

  it("lists the sandbox's identity service operations", async () => {
    const sandbox = await createClient(app.store, { claimSet: 'Ed-Fi Sandbox' });
    const token = await tokenOf(sandbox);
    const body = (await tokenInfo(token, { token })).json<Record<string, unknown>>();
    expect(body).toMatchObject({
      education_organizations: [],
      claim_set: { name: 'Ed-Fi Sandbox' },
      services: [{ service: 'identity', operations: ['Create', 'Read', 'Update'] }],
    });
  });

  it.each([
    ['a missing token', {}],
    ['a token that is not a GUID', { token: 'not-a-guid' }],
  ])('answers 400 for %s', async (_case, body) => {
    const response = await tokenInfo(vendorToken, body, 'application/json');
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({
      detail: 'An invalid token was provided',
      type: 'urn:ed-fi:api:bad-request',
      title: 'Bad Request',
      status: 400,
      errors: ['The token was not present, or was not processable as a GUID value.'],
    });
  });

  it("answers 400 for any token but the one the request authenticated with (7.3.2): unknown, own or another client's", async () => {
    const othersToken = await tokenOf(await createClient(app.store));
    const ownOtherToken = await tokenOf(vendor);
    for (const token of ['0'.repeat(32), ownOtherToken, othersToken]) {
      const response = await tokenInfo(vendorToken, { token });
      expect([response.status, response.json()]).toEqual([
        400,
        {
          detail: 'The authentication token and the token to inspect must match.',
          type: 'urn:ed-fi:api:bad-request',
          title: 'Bad Request',
          status: 400,
          correlationId: expect.any(String),
          errors: ['The authentication token (header) and the token to inspect in the body must match.'],
        },
      ]);
    }
  });

  it('answers 401 without a bearer token, with an empty body', async () => {
    const response = await tokenInfo(undefined, { token: vendorToken });
    expect(response.status).toBe(401);
    expect(response.body).toBe('');
  });
});
