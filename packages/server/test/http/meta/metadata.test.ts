import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import { getModelRegistry } from '../../../src/model/index.js';
import { BASE, metaServer } from './support.js';

interface OpenApi {
  openapi: string;
  servers: { url: string }[];
  paths: Record<
    string,
    Record<string, { operationId: string; parameters?: { name?: string; $ref?: string; in?: string }[] }>
  >;
  components: {
    schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>> }>;
    securitySchemes: Record<string, { flows?: { clientCredentials: { tokenUrl: string } } }>;
  };
}

const HOST = { host: 'example.org' };
const ROOT = `http://example.org${BASE}`;
const registry = getModelRegistry();
let server: ApiServer;
const documents = new Map<string, OpenApi>();

beforeAll(async () => {
  server = await metaServer();
  for (const name of ['resources', 'descriptors']) {
    const response = await server.inject({ url: `${BASE}/metadata/data/v3/${name}/swagger.json`, headers: HOST });
    expect(response.status).toBe(200);
    documents.set(name, response.json<OpenApi>());
  }
});

function allRefs(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) allRefs(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') found.add(member);
      else allRefs(member, found);
    }
  }
  return found;
}

function resolves(document: object, ref: string): boolean {
  let node: unknown = document;
  for (const segment of ref.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown> | undefined)?.[segment];
  return node !== undefined;
}

describe('GET {root}/metadata', () => {
  it('lists the Descriptors and Resources documents with absolute URLs and an ETag', async () => {
    const response = await server.inject({ url: `${BASE}/metadata`, headers: HOST });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual([
      { name: 'Descriptors', endpointUri: `${ROOT}/metadata/data/v3/descriptors/swagger.json`, prefix: '' },
      { name: 'Resources', endpointUri: `${ROOT}/metadata/data/v3/resources/swagger.json`, prefix: '' },
    ]);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const slash = await server.inject({ url: `${BASE}/metadata/`, headers: HOST });
    expect(slash.body).toBe(response.body);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await server.inject({ url: `${BASE}/metadata`, headers: HOST });
    const second = await server.inject({
      url: `${BASE}/metadata`,
      headers: { ...HOST, 'if-none-match': first.headers.etag! },
    });
    expect(second.status).toBe(304);
    expect(second.body).toBe('');
    expect(second.headers.etag).toBe(first.headers.etag);
  });
});

describe.each(['resources', 'descriptors'])('the %s OpenAPI document', (name) => {
  it('is a valid OpenAPI 3.0 document whose references all resolve', async () => {
    const document = documents.get(name)!;
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.0.1');
    for (const ref of allRefs(document)) expect(resolves(document, ref), ref).toBe(true);
  });

  it('points its server and token URL at the request root', () => {
    const document = documents.get(name)!;
    expect(document.servers).toEqual([{ url: `${ROOT}/data/v3` }]);
    expect(document.components.securitySchemes.oauth2_client_credentials!.flows!.clientCredentials.tokenUrl).toBe(
      `${ROOT}/oauth/token`,
    );
  });

  it('has unique operation ids and two paths per resource', () => {
    const document = documents.get(name)!;
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const resources = name === 'resources' ? registry.resources : registry.descriptorResources;
    expect(Object.keys(document.paths)).toHaveLength(resources.length * 2);
  });

  it('supports ETag revalidation', async () => {
    const url = `${BASE}/metadata/data/v3/${name}/swagger.json`;
    const first = await server.inject({ url, headers: HOST });
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await server.inject({ url, headers: { ...HOST, 'if-none-match': `W/${first.headers.etag}` } });
    expect(again.status).toBe(304);
    const elsewhere = await server.inject({
      url,
      headers: { host: 'other.example', 'if-none-match': first.headers.etag! },
    });
    expect(elsewhere.status).toBe(200);
  });
});

describe('the resources OpenAPI document', () => {
  it('describes /ed-fi/students with paging and query parameters and all operations', () => {
    const document = documents.get('resources')!;
    const list = document.paths['/ed-fi/students']!;
    expect(Object.keys(list)).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/ed-fi/students/{id}']!)).toEqual(['get', 'put', 'delete']);
    const parameters = list.get!.parameters!;
    expect(parameters.slice(0, 3).map((parameter) => parameter.$ref)).toEqual([
      '#/components/parameters/offset',
      '#/components/parameters/limit',
      '#/components/parameters/totalCount',
    ]);
    const names = parameters.slice(3).map((parameter) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(['studentUniqueId', 'firstName', 'lastSurname', 'birthDate', 'id']));
    expect(parameters.find((parameter) => parameter.name === 'studentUniqueId')).toMatchObject({
      in: 'query',
      schema: { type: 'string', maxLength: 32 },
      'x-Ed-Fi-isIdentity': true,
    });
    expect(list.get!.operationId).toBe('getStudents');
  });

  it('describes a resource schema with identity, required members, references and server fields', () => {
    const { schemas } = documents.get('resources')!.components;
    const week = schemas['edFi_academicWeek']!;
    expect(week.required).toEqual(expect.arrayContaining(['weekIdentifier', 'schoolReference', 'beginDate']));
    expect(week.properties.weekIdentifier).toMatchObject({ type: 'string', maxLength: 80, 'x-Ed-Fi-isIdentity': true });
    expect(week.properties.schoolReference).toEqual({ $ref: '#/components/schemas/edFi_schoolReference' });
    expect(Object.keys(week.properties)).toEqual(expect.arrayContaining(['id', '_etag', '_lastModifiedDate']));
    expect(schemas['edFi_schoolReference']!.properties).toMatchObject({
      schoolId: { type: 'integer', format: 'int64', 'x-Ed-Fi-isIdentity': true },
      link: { $ref: '#/components/schemas/link' },
    });
    expect(schemas['edFi_school']!.properties.addresses).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/edFi_schoolAddress' },
    });
  });

  it('marks the PUT of resources whose identity may change', () => {
    const paths = documents.get('resources')!.paths;
    const updatable = registry.resources.filter((resource) => resource.allowIdentityUpdates);
    expect(updatable.length).toBeGreaterThan(0);
    for (const resource of registry.resources) {
      const put = paths[`/${resource.namespace}/${resource.endpoint}/{id}`]!.put as Record<string, unknown>;
      expect(put['x-Ed-Fi-isUpdatable']).toBe(resource.allowIdentityUpdates ? true : undefined);
    }
  });

  it('includes TPDM resources and the TPDM extension of schools', () => {
    const document = documents.get('resources')!;
    expect(document.paths['/tpdm/candidates']).toBeDefined();
    expect(document.components.schemas['edFi_school']!.properties._ext).toBeDefined();
  });
});

describe('the descriptors OpenAPI document', () => {
  it('describes descriptors with their namespace and code value identity', () => {
    const document = documents.get('descriptors')!;
    const schema = document.components.schemas['edFi_gradeLevelDescriptor']!;
    expect(schema.required).toEqual(['codeValue', 'namespace', 'shortDescription']);
    expect(schema.properties.codeValue).toMatchObject({ maxLength: 50, 'x-Ed-Fi-isIdentity': true });
    expect(document.paths['/tpdm/genderDescriptors']).toBeDefined();
  });
});

describe('GET {root}/metadata/data/v3/dependencies', () => {
  it('lists every resource in load order', async () => {
    const response = await server.inject({ url: `${BASE}/metadata/data/v3/dependencies` });
    expect(response.status).toBe(200);
    const entries = response.json<{ resource: string; order: number; operations: string[] }[]>();
    expect(Object.keys(entries[0]!)).toEqual(['resource', 'order', 'operations']);
    const orderOf = (resource: string, operation: string) =>
      entries.find((entry) => entry.resource === resource && entry.operations.includes(operation))!.order;
    expect(orderOf('/ed-fi/gradeLevelDescriptors', 'Create')).toBe(1);
    expect(orderOf('/ed-fi/schools', 'Create')).toBeLessThan(orderOf('/ed-fi/studentSchoolAssociations', 'Create'));
    expect(orderOf('/ed-fi/students', 'Update')).toBeGreaterThan(orderOf('/ed-fi/studentSchoolAssociations', 'Create'));
    expect(entries.length).toBe(registry.dependencyOrder().length);
  });
});

describe('GET {root}/metadata/xsd (the XSDs read from the Ed-Fi inputs beside the repository)', () => {
  const inputs = fileURLToPath(new URL('../../../../../../shared/edfi/', import.meta.url));
  const xsdNames = (folder: string) => readdirSync(path.join(inputs, folder)).filter((name) => name.endsWith('.xsd'));
  const coreFiles = ['Ed-Fi-Core.xsd', ...xsdNames('xsd')].map((name) => `${ROOT}/metadata/xsd/ed-fi/${name}`);
  const tpdmFiles = xsdNames('tpdm-xsd').map((name) => `${ROOT}/metadata/xsd/tpdm/${name}`);
  const ordinal = (urls: string[]) => [...urls].sort((a, b) => (a < b ? -1 : 1));

  it('lists the core and TPDM schemas with their versions and file lists', async () => {
    const response = await server.inject({ url: `${BASE}/metadata/xsd`, headers: HOST });
    expect([response.status, response.json()]).toEqual([
      200,
      [
        {
          description: 'Core schema (Ed-Fi) files for the data model',
          name: 'Ed-Fi',
          version: '5.2.0',
          files: `${ROOT}/metadata/xsd/ed-fi/files`,
        },
        {
          description: 'Extension TPDM blended with Core schema files for the data model',
          name: 'TPDM',
          version: '1.1.0',
          files: `${ROOT}/metadata/xsd/tpdm/files`,
        },
      ],
    ]);
  });

  it("lists a schema's file URLs in ordinal order, an extension's with the core's, and none for an unknown schema", async () => {
    const files = async (schema: string) =>
      (await server.inject({ url: `${BASE}/metadata/xsd/${schema}/files`, headers: HOST })).json<string[]>();
    expect(await files('ed-fi')).toEqual(ordinal(coreFiles));
    expect(await files('tpdm')).toEqual(ordinal([...tpdmFiles, ...coreFiles]));
    expect(await files('nothing')).toEqual([]);
  });

  it('serves each listed file as XML, and 404 for any other name', async () => {
    const response = await server.inject({ url: `${BASE}/metadata/xsd/ed-fi/Ed-Fi-Core.xsd` });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body).toBe(readFileSync(path.join(inputs, 'Ed-Fi-Core.xsd'), 'utf8'));
    const tpdm = await server.inject({ url: `${BASE}/metadata/xsd/tpdm/${xsdNames('tpdm-xsd')[0]}` });
    expect(tpdm.status).toBe(200);
    for (const url of ['ed-fi/Nothing.xsd', 'tpdm/Ed-Fi-Core.xsd', 'ed-fi/..%2F..%2FREADME.md']) {
      expect((await server.inject({ url: `${BASE}/metadata/xsd/${url}` })).status).toBe(404);
    }
  });
});
