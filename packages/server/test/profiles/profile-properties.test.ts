// Properties of profiles over random documents and random profiles: a GET through a readable profile equals the full
// GET with the excluded members removed, and a PUT through a writable profile never changes an excluded member. The
// expected views are worked out here from the profile's plan and the model's facts (identity members), not by the
// profile code.
import type { ApiServer } from '@edfi-api/framework';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowEveryAction } from '../../src/api/index.js';
import { createEdFiApp } from '../../src/http/app.js';
import { getModelRegistry, type PropertyShape, type ResourceModel } from '../../src/model/index.js';
import { seedNewStore } from '../../src/setup/first-start.js';
import { openStore, type Store } from '../../src/store/index.js';
import { fullDocument } from '../../src/testing/index.js';
import { ensureDescriptorValues } from '../support/descriptor-values.js';
import { DATA_PATH, issueToken } from '../support/edfi-server.js';
import { ADMIN, idOf, importThroughAdmin, readable, writable } from './profile-fixtures.js';

type Doc = Record<string, unknown>;
type ItemMode = 'IncludeAll' | 'ExcludeOnly' | 'IncludeOnly';

interface ItemPlan {
  readonly mode: ItemMode;
  readonly members: readonly string[];
}

interface Plan {
  readonly mode: 'IncludeOnly' | 'ExcludeOnly';
  readonly properties: readonly string[];
  readonly collections: ReadonlyMap<string, ItemPlan>;
}

const registry = getModelRegistry();
const RESOURCES = ['PostSecondaryInstitution', 'CommunityOrganization'].map((name) =>
  registry.getResourceByName(name)!,
);
const SERVER_FIELDS = new Set(['id', '_etag', '_lastModifiedDate']);

const odsName = (jsonName: string, shape: PropertyShape) =>
  shape.memberName ?? jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
const members = (shape: PropertyShape) => Object.entries(shape.properties ?? {});

function rootIdentity(resource: ResourceModel): Set<string> {
  return new Set(
    members(resource.shape)
      .filter(([, shape]) => shape.isIdentity)
      .map(([name]) => name),
  );
}

function itemIdentity(resource: ResourceModel, collection: string): Set<string> {
  const model = resource.collections.find((each) => each.path === `$.${collection}[*]`)!;
  return new Set(model.itemIdentity.map((path) => path.slice(2).split(/[.[]/)[0]!));
}

function planOf(resource: ResourceModel): fc.Arbitrary<Plan> {
  const identity = rootIdentity(resource);
  const scalars = members(resource.shape)
    .filter(([name, shape]) => !identity.has(name) && shape.type !== 'array' && name !== '_ext')
    .map(([name]) => name);
  const collections = members(resource.shape)
    .filter(([, shape]) => shape.type === 'array')
    .map(([name]) => name);
  const itemPlan = (collection: string): fc.Arbitrary<ItemPlan> => {
    const keys = itemIdentity(resource, collection);
    const itemScalars = members(resource.shape.properties![collection]!.items!)
      .filter(([name, shape]) => !keys.has(name) && shape.type !== 'array')
      .map(([name]) => name);
    return fc.record({
      mode: fc.constantFrom<ItemMode>('IncludeAll', 'ExcludeOnly', 'IncludeOnly'),
      members: fc.subarray(itemScalars),
    });
  };
  return fc.record({
    mode: fc.constantFrom<Plan['mode']>('IncludeOnly', 'ExcludeOnly'),
    properties: fc.subarray(scalars),
    collections: fc
      .subarray(collections)
      .chain((chosen) =>
        fc.tuple(...chosen.map(itemPlan)).map((plans) => new Map(chosen.map((name, i) => [name, plans[i]!]))),
      ),
  });
}

function contentXml(resource: ResourceModel, plan: Plan): string {
  const shape = resource.shape.properties!;
  const properties = plan.properties.map((name) => `<Property name="${odsName(name, shape[name]!)}"/>`).join('');
  const collections = [...plan.collections]
    .map(([name, item]) => {
      const items = shape[name]!.items!.properties!;
      const listed = item.members.map((member) => `<Property name="${odsName(member, items[member]!)}"/>`).join('');
      return `<Collection name="${odsName(name, shape[name]!)}" memberSelection="${item.mode}">${listed}</Collection>`;
    })
    .join('');
  return `memberSelection="${plan.mode}">${properties}${collections}`;
}

function profileOf(name: string, resource: ResourceModel, plan: Plan, usage: 'Read' | 'Write'): string {
  const tag = `${usage}ContentType`;
  return `<Profiles><Profile name="${name}"><Resource name="${resource.resourceName}"><${tag} ${contentXml(resource, plan)}</${tag}></Resource></Profile></Profiles>`;
}

function isRootMemberShown(plan: Plan, identity: Set<string>, name: string): boolean {
  if (SERVER_FIELDS.has(name) || identity.has(name) || plan.collections.has(name)) return true;
  return plan.mode === 'IncludeOnly' ? plan.properties.includes(name) : !plan.properties.includes(name);
}

function isItemMemberShown(plan: ItemPlan, identity: Set<string>, name: string): boolean {
  if (identity.has(name) || plan.mode === 'IncludeAll') return true;
  return plan.mode === 'IncludeOnly' ? plan.members.includes(name) : !plan.members.includes(name);
}

/** The full representation with the members the plan excludes removed. */
function withoutExcluded(resource: ResourceModel, plan: Plan, full: Doc): Doc {
  const identity = rootIdentity(resource);
  const shown: Doc = {};
  for (const [name, value] of Object.entries(full)) {
    if (!isRootMemberShown(plan, identity, name)) continue;
    const item = plan.collections.get(name);
    if (item === undefined) {
      shown[name] = value;
      continue;
    }
    const keys = itemIdentity(resource, name);
    shown[name] = (value as Doc[]).map((element) =>
      Object.fromEntries(Object.entries(element).filter(([member]) => isItemMemberShown(item, keys, member))),
    );
  }
  return shown;
}

let store: Store;
let app: ApiServer;
let token: string;
let serial = 0;

beforeAll(async () => {
  store = await openStore('sqlite::memory:');
  await seedNewStore(store, registry, 'descriptors');
  app = await createEdFiApp({
    store,
    logger: { info() {}, warn() {}, error: console.error },
    admin: ADMIN,
    authorize: allowEveryAction,
  });
  token = await issueToken(app, store);
});
afterAll(() => store.close());

function data(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  return app.inject({
    method,
    url: `${DATA_PATH}${path}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  });
}

const pathOf = (resource: ResourceModel) => `/${resource.namespace}/${resource.endpoint}`;

/** A generated document of the resource under a natural key of its own, its descriptor values in the store. */
async function documentWithKey(resource: ResourceModel, seed: number, key: number): Promise<Doc> {
  const document = { ...fullDocument(resource, undefined, { seed }) };
  for (const name of rootIdentity(resource)) document[name] = key;
  await ensureDescriptorValues(store, registry, resource, document);
  return document;
}

async function stored(resource: ResourceModel, seed: number): Promise<{ id: string; key: number }> {
  const key = 900_000 + ++serial;
  const response = await data('POST', pathOf(resource), {}, await documentWithKey(resource, seed, key));
  expect(response.status, response.body).toBe(201);
  return { id: idOf(response.headers.location), key };
}

async function fullGet(resource: ResourceModel, id: string): Promise<Doc> {
  return (await data('GET', `${pathOf(resource)}/${id}`)).json<Doc>();
}

const resourceAndPlan = fc
  .constantFrom(...RESOURCES)
  .chain((resource) =>
    fc.record({ resource: fc.constant(resource), plan: planOf(resource), seed: fc.integer({ min: 1, max: 10_000 }) }),
  );

describe('profile properties', () => {
  it('GET through a readable profile is the full GET without the excluded members', async () => {
    await fc.assert(
      fc.asyncProperty(resourceAndPlan, async ({ resource, plan, seed }) => {
        const name = `Read-Property-${++serial}`;
        expect((await importThroughAdmin(app, profileOf(name, resource, plan, 'Read'))).status).toBe(201);
        const { id } = await stored(resource, seed);
        const full = await fullGet(resource, id);
        const response = await data('GET', `${pathOf(resource)}/${id}`, {
          accept: readable(resource.resourceName.toLowerCase(), name),
        });
        expect(response.status, response.body).toBe(200);
        expect(response.json()).toEqual(withoutExcluded(resource, plan, full));
      }),
      { numRuns: 40 },
    );
  });

  it('PUT through a writable profile never changes an excluded member', async () => {
    await fc.assert(
      fc.asyncProperty(
        resourceAndPlan,
        fc.integer({ min: 1, max: 10_000 }),
        async ({ resource, plan, seed }, other) => {
          const name = `Write-Property-${++serial}`;
          expect((await importThroughAdmin(app, profileOf(name, resource, plan, 'Write'))).status).toBe(201);
          const { id, key } = await stored(resource, seed);
          const before = await fullGet(resource, id);
          const response = await data(
            'PUT',
            `${pathOf(resource)}/${id}`,
            { 'content-type': writable(resource.resourceName.toLowerCase(), name) },
            await documentWithKey(resource, other, key),
          );
          const after = await fullGet(resource, id);
          if (response.status !== 204) {
            // A new item the profile cannot create: refused, and nothing changed.
            expect(response.status, response.body).toBe(400);
            expect(after).toEqual(before);
            return;
          }
          const identity = rootIdentity(resource);
          for (const [member, value] of Object.entries(before)) {
            if (SERVER_FIELDS.has(member)) continue;
            if (!isRootMemberShown(plan, identity, member)) expect(after[member], member).toEqual(value);
            const item = plan.collections.get(member);
            if (item === undefined) continue;
            const keys = itemIdentity(resource, member);
            const keyOf = (element: Doc) => JSON.stringify([...keys].map((k) => element[k]));
            const earlier = new Map((value as Doc[]).map((element) => [keyOf(element), element]));
            for (const element of after[member] as Doc[]) {
              const previous = earlier.get(keyOf(element));
              if (previous === undefined) continue;
              for (const [itemMember, itemValue] of Object.entries(previous)) {
                if (!isItemMemberShown(item, keys, itemMember))
                  expect(element[itemMember], `${member}.${itemMember}`).toEqual(itemValue);
              }
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
