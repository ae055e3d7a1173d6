// Every resource and descriptor of the model, in load order, through HTTP: POST a minimal and a full generated
// document, read each back by id and by its query fields, PUT a change, see 409 while referenced, then DELETE all.
// The shipped optional extensions (Sample, Homograph) are on: their resources, and `_ext.sample` on the core
// resources it extends (inside collection items too), go through the same steps.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  compilePathCollector,
  compilePathGetter,
  getModelRegistry,
  type ResourceModel,
} from '../../src/model/index.js';
import { validatorFor, type JsonObject, type ResourceDocument } from '../../src/model/validation/index.js';
import { fullDocument, minimalDocument } from '../../src/testing/index.js';
import { CreatedDocuments, type CreatedDocument } from '../support/created-documents.js';
import { ensureDescriptorValues } from '../support/descriptor-values.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const EXTENSIONS = ['sample', 'homograph'];
const registry = getModelRegistry(EXTENSIONS);

/** schoolYearTypes has no place in the load order (it is seeded), so it goes first. */
function loadOrder(): ResourceModel[] {
  const ordered: ResourceModel[] = registry.allResources.filter((resource) => resource.isSchoolYearEnumeration);
  for (const { resource: path } of registry.dependencyOrder()) {
    const [, namespace = '', endpoint = ''] = path.split('/');
    const resource = registry.getResource(namespace, endpoint);
    if (resource !== undefined && !ordered.includes(resource)) ordered.push(resource);
  }
  return ordered;
}

const resources = loadOrder();
const MINIMAL = 0;
const FULL = 1;
/** More than the documents created after any one document and before its queries run. */
const NEWEST_WINDOW = 10;

function pathOf(resource: ResourceModel, id?: string): string {
  return `/${resource.namespace}/${resource.endpoint}${id === undefined ? '' : `/${id}`}`;
}

function canonical(resource: ResourceModel, document: ResourceDocument): ResourceDocument {
  const result = validatorFor(resource).validateInsert(document);
  if (!result.ok) throw new Error(`Generated ${resource.endpoint} is invalid: ${JSON.stringify(result.failure)}`);
  return result.document;
}

/** The representation without server fields and links, to compare with what was sent. */
function sentPart(representation: JsonObject): JsonObject {
  const { id: _id, _etag, _lastModifiedDate, ...body } = representation;
  return JSON.parse(JSON.stringify(body), (key, value: unknown) => (key === 'link' ? undefined : value)) as JsonObject;
}

/** Empty collections compare as absent: the server adds one for every collection a client leaves out. */
function withoutEmptyCollections(body: JsonObject): JsonObject {
  return JSON.parse(JSON.stringify(body), (_key, value: unknown) =>
    Array.isArray(value) && value.length === 0 ? undefined : value,
  ) as JsonObject;
}

/**
 * Documents of one variant share a seed, so unified key values (a fiscal year, a school year) agree across resources;
 * subclasses of one abstract resource share its identity space, so each takes its own seeds.
 */
function seedOf(resource: ResourceModel, variant: number): number {
  const superclass = resource.superclass && registry.getAbstractResource(resource.superclass.resourceName);
  const sibling = superclass?.subclasses.findIndex((subclass) => subclass.endpoint === resource.endpoint) ?? 0;
  return 1 + variant + 2 * sibling;
}

function queryValueOf(document: ResourceDocument, path: string, id: string): string | undefined {
  if (path === '$.id') return id;
  const value = compilePathGetter(path)(document);
  return value === undefined ? undefined : String(value);
}

/** Migrating a PostgreSQL schema to serve Sample and Homograph takes well over vitest's 10 s on a loaded machine. */
const SETUP_TIMEOUT_MS = 120_000;

describeEachStore('the whole catalogue', (stores) => {
  let app: EdFiTestServer;
  const created = new CreatedDocuments(registry);
  let referencedDeletesRefused = 0;

  beforeAll(async () => {
    app = await startEdFiServer({ store: await stores.newSpec(), extensions: EXTENSIONS });
    // References to school years must name seeded ones (1991–2050); generated school years lie outside that range.
    const schoolYearTypes = registry.getResource('ed-fi', 'schoolYearTypes')!;
    const seeded = await app.data('GET', `${pathOf(schoolYearTypes)}?limit=2`);
    for (const { id, ...document } of seeded.json<JsonObject[]>()) {
      created.add({ resource: schoolYearTypes, id: String(id), document: sentPart(document) });
    }
  }, SETUP_TIMEOUT_MS);
  afterAll(() => app.close());

  async function expectRead(resource: ResourceModel, id: string, document: ResourceDocument): Promise<JsonObject> {
    const response = await app.data('GET', pathOf(resource, id));
    expect(response.status, response.body).toBe(200);
    const representation = response.json<JsonObject>();
    expect(representation.id).toBe(id);
    expect(withoutEmptyCollections(sentPart(representation))).toEqual(withoutEmptyCollections(document));
    for (const [name, shape] of Object.entries(resource.shape.properties ?? {})) {
      if (shape.type === 'array') expect(representation[name], `${resource.endpoint} ${name}`).toBeInstanceOf(Array);
    }
    for (const reference of registry.accessorsOf(resource).referencesOf(document)) {
      compilePathCollector(reference.reference.path)(representation, (value, path) => {
        expect((value as JsonObject).link, `${resource.endpoint} ${path}`).toMatchObject({
          rel: expect.any(String),
          href: expect.stringMatching(/^\/(?:ed-fi|tpdm|sample|homograph)\/\w+\/[0-9a-f]{32}$/),
        });
      });
    }
    return representation;
  }

  async function post(resource: ResourceModel, variant: number): Promise<CreatedDocument> {
    const generate = variant === MINIMAL ? minimalDocument : fullDocument;
    const generated = generate(resource, created.resolver(variant), { seed: seedOf(resource, variant) });
    const document = canonical(resource, created.withoutMissingOptionalReferences(resource, generated));
    await ensureDescriptorValues(app.store, registry, resource, document);
    const response = await app.data('POST', pathOf(resource), { body: document });
    expect(response.status, `POST ${resource.endpoint}: ${response.body}`).toBe(201);
    const id = response.headers.location?.split('/').pop() ?? '';
    const entry = { resource, id, document };
    created.add(entry);
    return entry;
  }

  /** The ids of the last items a query matches: the document looked for is among the newest. */
  async function newestMatches(resource: ResourceModel, query: URLSearchParams): Promise<unknown[]> {
    const counted = await app.data('GET', `${pathOf(resource)}?${query}&limit=0&totalCount=true`);
    expect(counted.status, counted.body).toBe(200);
    const offset = Math.max(Number(counted.headers['total-count']) - NEWEST_WINDOW, 0);
    const response = await app.data('GET', `${pathOf(resource)}?${query}&offset=${offset}`);
    return response.json<JsonObject[]>().map((item) => item.id);
  }

  async function expectFoundByQueryFields(entry: CreatedDocument): Promise<void> {
    const { resource, id, document } = entry;
    const all = new URLSearchParams();
    for (const [name, [path]] of Object.entries(resource.queryFields)) {
      const value = queryValueOf(document, path!, id);
      if (value === undefined) continue;
      all.set(name, value);
      const query = new URLSearchParams({ [name]: value });
      expect(await newestMatches(resource, query), `${resource.endpoint}?${query}`).toContain(id);
    }
    const combined = await app.data('GET', `${pathOf(resource)}?${all}`);
    expect(combined.json<JsonObject[]>().map((item) => item.id)).toEqual([id]);
  }

  /**
   * The change a PUT makes: the minimal document of the same identity (optional members removed), with the root's other
   * required scalars taken from a differently seeded document.
   */
  function changedDocument(entry: CreatedDocument): ResourceDocument {
    const { resource } = entry;
    const seed = seedOf(resource, FULL);
    const changed = created.withoutMissingOptionalReferences(
      resource,
      minimalDocument(resource, created.resolver(FULL), { seed }),
    );
    const other = fullDocument(resource, created.resolver(FULL), { seed: seed + 100 });
    const unified = new Set(
      resource.equalityConstraints.flatMap(({ sourcePath, targetPath }) => [sourcePath, targetPath]),
    );
    for (const [name, shape] of Object.entries(resource.shape.properties ?? {})) {
      const path = `$.${name}`;
      const isOtherScalar =
        shape.type !== 'object' && shape.type !== 'array' && !shape.isIdentity && !unified.has(path);
      if (isOtherScalar && name in changed && other[name] !== undefined) changed[name] = other[name];
    }
    return canonical(resource, changed);
  }

  it.each(resources.map((resource) => [pathOf(resource), resource] as const))(
    '%s: POST, GET, query, PUT and 409 while referenced',
    async (_path, resource) => {
      const minimal = await post(resource, MINIMAL);
      const full = await post(resource, FULL);
      await expectRead(resource, minimal.id, minimal.document);
      await expectRead(resource, full.id, full.document);
      await expectFoundByQueryFields(minimal);
      await expectFoundByQueryFields(full);

      for (const reference of registry.accessorsOf(resource).referencesOf(full.document)) {
        const target = created.find(reference);
        if (target === undefined || target === full) continue;
        const response = await app.data('DELETE', pathOf(target.resource, target.id));
        expect(response.status, `DELETE ${target.resource.endpoint} referenced by ${resource.endpoint}`).toBe(409);
        expect(response.json<{ type: string }>().type).toBe('urn:ed-fi:api:data-conflict:dependent-item-exists');
        referencedDeletesRefused++;
      }

      const change = changedDocument(full);
      await ensureDescriptorValues(app.store, registry, resource, change);
      const put = await app.data('PUT', pathOf(resource, full.id), { body: change });
      expect(put.status, `PUT ${resource.endpoint}: ${put.body}`).toBe(204);
      await expectRead(resource, full.id, change);
      created.replace(full, { ...full, document: change });
    },
  );

  it('refused to delete referenced documents', () => {
    // Descriptors reference nothing; nearly every other resource references several documents.
    expect(referencedDeletesRefused).toBeGreaterThan(registry.resources.length);
  });

  // About 800 deletes, each committed on its own: several seconds on PostgreSQL.
  it('deletes everything, newest first', async () => {
    for (const entry of created.all().reverse()) {
      const response = await app.data('DELETE', pathOf(entry.resource, entry.id));
      expect(response.status, `DELETE ${entry.resource.endpoint}: ${response.body}`).toBe(204);
      expect((await app.data('GET', pathOf(entry.resource, entry.id))).status).toBe(404);
    }
  }, 60_000);
});
