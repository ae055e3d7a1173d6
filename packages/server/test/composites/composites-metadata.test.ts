// The enrollment composites' OpenAPI document (contract §1.4): listed by /metadata, valid, and naming every route of
// DS4AndDS5_Composites.xml; discovery's composites URL answers.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const HOST = { host: 'api.example.org' };
const ROOT = `http://api.example.org${BASE_PATH}`;

describe('the enrollment composites in the metadata', () => {
  let edfi: EdFiTestServer;
  beforeAll(async () => {
    edfi = await startEdFiServer();
  });
  afterAll(() => edfi?.close());

  it('/metadata lists the Enrollment document before the data documents', async () => {
    const response = await edfi.server.inject({ url: `${BASE_PATH}/metadata`, headers: HOST });
    expect(response.json()).toEqual([
      {
        name: 'Enrollment',
        endpointUri: `${ROOT}/metadata/composites/v1/ed-fi/enrollment/swagger.json`,
        prefix: 'Composites',
      },
      { name: 'Descriptors', endpointUri: `${ROOT}/metadata/data/v3/descriptors/swagger.json`, prefix: '' },
      { name: 'Resources', endpointUri: `${ROOT}/metadata/data/v3/resources/swagger.json`, prefix: '' },
    ]);
  });

  it('serves a valid OpenAPI document with every composite, item and nested route of the definition', async () => {
    const response = await edfi.server.inject({
      url: `${BASE_PATH}/metadata/composites/v1/ed-fi/enrollment/swagger.json`,
      headers: HOST,
    });
    expect(response.status).toBe(200);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const document = response.json<{ servers: { url: string }[]; paths: Record<string, unknown> }>();
    expect(await new Validator().validate(document)).toMatchObject({ valid: true });
    expect(document.servers).toEqual([{ url: `${ROOT}/composites/v1` }]);
    const composites = ['localEducationAgencies', 'schools', 'sections', 'staffs', 'students'];
    // Per parent route, the composites whose Specification has the parent's `{Resource.Id}` parameter.
    const nested: Record<string, string[]> = {
      localEducationAgencies: ['schools', 'sections', 'staffs', 'students'],
      schools: ['sections', 'staffs', 'students'],
      sections: ['schools', 'staffs', 'students'],
      staffs: ['schools', 'sections', 'students'],
      students: ['schools', 'sections', 'staffs'],
    };
    const expected = [
      ...composites.flatMap((composite) => [`/${composite}`, `/${composite}/{id}`]),
      ...Object.entries(nested).flatMap(([parent, under]) => under.map((composite) => `/${parent}/{id}/${composite}`)),
    ].map((path) => `/ed-fi/enrollment${path}`);
    expect(Object.keys(document.paths).sort()).toEqual(expected.sort());
  });

  it("discovery's composites URL lists the category's composites", async () => {
    const discovery = await edfi.server.inject({ url: `${BASE_PATH}/`, headers: HOST });
    const url = discovery.json<{ urls: Record<string, string> }>().urls.composites!;
    expect(url).toBe(`${ROOT}/composites/v1/`);
    const index = await edfi.server.inject({
      url: url.replace('http://api.example.org', ''),
      headers: { ...HOST, authorization: `Bearer ${edfi.token}` },
    });
    expect(index.status).toBe(200);
    expect(index.json()).toEqual([
      {
        organization: 'ed-fi',
        category: 'enrollment',
        displayName: 'Ed-Fi Enrollment',
        composites: ['localEducationAgencies', 'schools', 'sections', 'students', 'staffs'].map(
          (composite) => `${ROOT}/composites/v1/ed-fi/enrollment/${composite}`,
        ),
      },
    ]);
    expect((await edfi.server.inject({ url: url.replace('http://api.example.org', ''), headers: HOST })).status).toBe(
      401,
    );
  });
});
