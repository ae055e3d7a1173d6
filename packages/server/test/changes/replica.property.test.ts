// Property: a consumer that mirrors the server by natural key, using only lists bounded by change version, `/deletes`
// and `/keyChanges`, ends with exactly the server's data, whatever writes, identity updates and cascades come between
// its increments.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { keyValuesOf } from '../../src/store/relational/tracked-values.js';
import type { ResourceModel } from '../../src/model/index.js';
import { describeEachStore } from '../support/each-store.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import {
  classPeriod,
  course,
  courseOffering,
  location,
  resources,
  school,
  schoolYearType,
  section,
  seedSampleDescriptors,
  session,
  student,
  studentSectionAssociation,
} from '../store/sample-documents.js';
import { algebra, SCHOOL_ID } from './support.js';

type Item = Record<string, unknown>;

const MIRRORED: readonly ResourceModel[] = [
  resources.students,
  resources.sessions,
  resources.courseOfferings,
  resources.sections,
  resources.studentSectionAssociations,
  resources.classPeriods,
  resources.locations,
];

type Action =
  | { readonly kind: 'addStudent' | 'deleteStudent'; readonly student: number }
  | { readonly kind: 'renameStudent'; readonly student: number; readonly name: number }
  | { readonly kind: 'enrol'; readonly student: number; readonly section: number }
  | { readonly kind: 'unenrol'; readonly pick: number }
  | { readonly kind: 'renameSection'; readonly pick: number; readonly name: number }
  | { readonly kind: 'renameSession' | 'renamePeriod' | 'renameLocation'; readonly name: number }
  | { readonly kind: 'sync' };

const actions: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constantFrom('addStudent' as const, 'deleteStudent' as const), student: fc.nat(4) }),
  fc.record({ kind: fc.constant('renameStudent' as const), student: fc.nat(4), name: fc.nat(2) }),
  fc.record({ kind: fc.constant('enrol' as const), student: fc.nat(4), section: fc.nat(1) }),
  fc.record({ kind: fc.constant('unenrol' as const), pick: fc.nat(9) }),
  fc.record({ kind: fc.constant('renameSection' as const), pick: fc.nat(1), name: fc.nat(2) }),
  fc.record({
    kind: fc.constantFrom('renameSession' as const, 'renamePeriod' as const, 'renameLocation' as const),
    name: fc.nat(2),
  }),
  fc.constant({ kind: 'sync' as const }),
);

/** A natural key as flattened key values (what `/deletes` and `/keyChanges` carry), order aside. */
function keyOf(keyValues: object): string {
  return JSON.stringify(Object.entries(keyValues).sort());
}

/** The natural key of a representation, flattened the same way. */
function keyOfItem(resource: ResourceModel, item: Item): string {
  return keyOf(keyValuesOf(resource, item));
}

/** The consumer: one map per resource from natural key to the representation, and the last version it read. */
class Replica {
  readonly rows = new Map<ResourceModel, Map<string, Item>>(MIRRORED.map((resource) => [resource, new Map()]));
  #synced = 0;

  constructor(private readonly app: EdFiTestServer) {}

  async sync(): Promise<void> {
    const available = await this.app.server.inject({
      method: 'GET',
      url: `${BASE_PATH}/changeQueries/v1/availableChangeVersions`,
      headers: { authorization: `Bearer ${this.app.token}` },
    });
    const newest = available.json<{ newestChangeVersion: number }>().newestChangeVersion;
    const window = `minChangeVersion=${this.#synced + 1}&maxChangeVersion=${newest}`;
    for (const resource of MIRRORED) {
      const rows = this.rows.get(resource)!;
      // Items leave their old keys first (key changes, then deletions); the list then puts every changed item in place.
      for (const change of await this.#all<{ oldKeyValues: Item }>(resource, 'keyChanges', window))
        rows.delete(keyOf(change.oldKeyValues));
      for (const deletion of await this.#all<{ keyValues: Item }>(resource, 'deletes', window))
        rows.delete(keyOf(deletion.keyValues));
      for (const item of await this.#all<Item>(resource, '', window)) rows.set(keyOfItem(resource, item), item);
    }
    this.#synced = newest;
  }

  async #all<T>(resource: ResourceModel, feed: string, window: string): Promise<T[]> {
    const items: T[] = [];
    const path = `/ed-fi/${resource.endpoint}${feed === '' ? '' : `/${feed}`}`;
    for (let offset = 0; ; offset += 3) {
      const response = await this.app.data('GET', `${path}?${window}&limit=3&offset=${offset}`);
      expect(response.status, response.body).toBe(200);
      const page = response.json<T[]>();
      items.push(...page);
      if (page.length < 3) return items;
    }
  }
}

async function serverRows(app: EdFiTestServer): Promise<Map<ResourceModel, Map<string, Item>>> {
  const rows = new Map<ResourceModel, Map<string, Item>>();
  for (const resource of MIRRORED) {
    const items = (await app.data('GET', `/ed-fi/${resource.endpoint}`)).json<Item[]>();
    rows.set(resource, new Map(items.map((item) => [keyOfItem(resource, item), item])));
  }
  return rows;
}

async function startScenario(spec: string): Promise<EdFiTestServer> {
  const app = await startEdFiServer({ store: spec, seed: false });
  await seedSampleDescriptors(app.store);
  const post = async (endpoint: string, body: Item) => {
    const response = await app.data('POST', `/ed-fi/${endpoint}`, { body });
    expect(response.status, response.body).toBe(201);
  };
  await post('schoolYearTypes', schoolYearType(2022));
  await post('schools', school(SCHOOL_ID));
  await post('sessions', session(SCHOOL_ID, 'Fall'));
  await post('courses', course('ALG-1', SCHOOL_ID));
  await post('courseOfferings', courseOffering(algebra));
  await post('classPeriods', classPeriod('P1', SCHOOL_ID));
  await post('locations', location('R101', SCHOOL_ID));
  for (const sectionIdentifier of ['SEC-0', 'SEC-1'])
    await post('sections', section({ ...algebra, sectionIdentifier }, { classPeriodNames: ['P1'], classroom: 'R101' }));
  return app;
}

/** Performs one write against whatever the server holds now; refusals (404, 409) are part of the game. */
async function perform(app: EdFiTestServer, action: Exclude<Action, { kind: 'sync' }>): Promise<void> {
  const list = async (endpoint: string) => (await app.data('GET', `/ed-fi/${endpoint}`)).json<Item[]>();
  const put = (endpoint: string, item: Item, changes: Item) =>
    app.data('PUT', `/ed-fi/${endpoint}/${String(item.id)}`, { body: { ...item, ...changes } });
  const studentNamed = async (index: number) => (await list(`students?studentUniqueId=s${index}`))[0];
  let status: number | undefined;
  switch (action.kind) {
    case 'addStudent':
      status = (await app.data('POST', '/ed-fi/students', { body: student(`s${action.student}`) })).status;
      break;
    case 'deleteStudent': {
      const found = await studentNamed(action.student);
      if (found) status = (await app.data('DELETE', `/ed-fi/students/${String(found.id)}`)).status;
      break;
    }
    case 'renameStudent': {
      const found = await studentNamed(action.student);
      if (found) status = (await put('students', found, { firstName: `Name${action.name}` })).status;
      break;
    }
    case 'enrol': {
      const sections = await list('sections');
      const target = sections[action.section % sections.length]!;
      const { link: _link, ...key } = target.courseOfferingReference as Item;
      const body = studentSectionAssociation(`s${action.student}`, {
        ...(key as unknown as typeof algebra),
        sectionIdentifier: String(target.sectionIdentifier),
      });
      status = (await app.data('POST', '/ed-fi/studentSectionAssociations', { body })).status;
      break;
    }
    case 'unenrol': {
      const enrolments = await list('studentSectionAssociations');
      const target = enrolments[action.pick % Math.max(enrolments.length, 1)];
      if (target) status = (await app.data('DELETE', `/ed-fi/studentSectionAssociations/${String(target.id)}`)).status;
      break;
    }
    case 'renameSection': {
      const target = (await list('sections'))[action.pick]!;
      status = (await put('sections', target, { sectionIdentifier: `SEC-${action.name}` })).status;
      break;
    }
    case 'renameSession': {
      const [target] = await list('sessions');
      status = (await put('sessions', target!, { sessionName: `Term-${action.name}` })).status;
      break;
    }
    case 'renamePeriod': {
      const [target] = await list('classPeriods');
      status = (await put('classPeriods', target!, { classPeriodName: `P-${action.name}` })).status;
      break;
    }
    case 'renameLocation': {
      const [target] = await list('locations');
      status = (await put('locations', target!, { classroomIdentificationCode: `R-${action.name}` })).status;
      break;
    }
  }
  if (status !== undefined) expect([200, 201, 204, 404, 409]).toContain(status);
}

describeEachStore('replica property', (stores) => {
  it('a consumer following change versions, deletes and key changes ends with exactly the server’s data', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(actions, { minLength: 1, maxLength: 30 }), async (script) => {
        const app = await startScenario(await stores.newSpec());
        try {
          const replica = new Replica(app);
          for (const action of script) {
            if (action.kind === 'sync') await replica.sync();
            else await perform(app, action);
          }
          await replica.sync();
          expect(replica.rows).toEqual(await serverRows(app));
        } finally {
          await app.close();
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
