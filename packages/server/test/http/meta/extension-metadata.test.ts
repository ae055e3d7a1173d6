// Metadata of a server serving Sample and Homograph: discovery names their data models, the resources and descriptors
// documents include them (valid OpenAPI, with Homograph's resources named like core ones kept apart), each has a
// document of its own, and the dependency order places them.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../../support/edfi-server.js';

interface OpenApi {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

describe('metadata with Sample and Homograph served', () => {
  let app: EdFiTestServer;
  beforeAll(async () => {
    app = await startEdFiServer({ extensions: ['sample', 'homograph'] });
  });
  afterAll(() => app.close());

  const get = async <T>(path: string): Promise<T> => {
    const response = await app.server.inject({ method: 'GET', url: `${BASE_PATH}${path}` });
    expect(response.status, path).toBe(200);
    return response.json<T>();
  };

  it('lists the extensions in discovery dataModels after Ed-Fi and TPDM', async () => {
    const discovery = await get<{ dataModels: { name: string; version: string }[] }>('/');
    expect(discovery.dataModels.map((model) => `${model.name} ${model.version}`)).toEqual([
      'Ed-Fi 5.2.0',
      'TPDM 1.1.0',
      'Homograph 1.0.0',
      'Sample 1.0.0',
    ]);
  });

  it('documents the extension resources in a valid resources document with unique operation ids', async () => {
    const document = await get<OpenApi>('/metadata/data/v3/resources/swagger.json');
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(document.paths).toHaveProperty(['/sample/buses']);
    expect(document.paths).toHaveProperty(['/homograph/students']);
    expect(document.paths).toHaveProperty(['/ed-fi/students']);
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const extension = document.components.schemas.edFi_student!.properties!._ext as { $ref: string };
    const extensionSchema = document.components.schemas[extension.$ref.split('/').pop()!]!;
    expect(Object.keys(extensionSchema.properties!)).toEqual(['sample']);
  });

  it('serves a document per extension', async () => {
    const sample = await get<OpenApi>('/metadata/data/v3/sample/swagger.json');
    expect(Object.keys(sample.paths).every((path) => path.startsWith('/sample/'))).toBe(true);
    expect(sample.paths).toHaveProperty(['/sample/artMediumDescriptors']);
    const homograph = await get<OpenApi>('/metadata/data/v3/homograph/swagger.json');
    expect(Object.keys(homograph.paths)).toContain('/homograph/schoolYearTypes');
  });

  it('places extension resources in the dependency order after what they reference', async () => {
    const order = await get<{ resource: string; order: number }[]>('/metadata/data/v3/dependencies');
    // A resource may come twice (created early, updated after the associations that authorize it): take the first.
    const rank = new Map<string, number>();
    for (const entry of order) if (!rank.has(entry.resource)) rank.set(entry.resource, entry.order);
    expect(rank.get('/sample/busRoutes')).toBeGreaterThan(rank.get('/sample/buses')!);
    expect(rank.get('/homograph/students')).toBeGreaterThan(rank.get('/homograph/names')!);
    expect(rank.get('/sample/studentArtProgramAssociations')).toBeGreaterThan(rank.get('/ed-fi/students')!);
  });
});

describe('metadata without the optional extensions', () => {
  let app: EdFiTestServer;
  beforeAll(async () => {
    app = await startEdFiServer();
  });
  afterAll(() => app.close());

  it('has no extension document and no extension paths', async () => {
    expect(
      (await app.server.inject({ method: 'GET', url: `${BASE_PATH}/metadata/data/v3/sample/swagger.json` })).status,
    ).toBe(404);
    const response = await app.server.inject({
      method: 'GET',
      url: `${BASE_PATH}/metadata/data/v3/resources/swagger.json`,
    });
    expect(response.body).not.toContain('/sample/');
  });
});
