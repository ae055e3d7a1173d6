// A write is authorized against the state it replaces: when another writer changes an item between the read that
// authorizes a write and the write itself, the write is authorized again (the store checks the authorized etag under
// its write lock) and refused if the new state is out of reach, never applied on the strength of the earlier state.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { dataClient, type DataClient } from '../support/data-client.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost, systemPut } from '../support/system-writes.js';

const LEA_A = 100;
const LEA_B = 200;
const SCHOOL_A = 1001;
const SCHOOL_B = 2001;
const NS_A = 'uri://district-a.org';
const NS_B = 'uri://district-b.org';

interface InterleavingStore {
  readonly store: Store;
  /** Runs `between` once, right after the next read of the item a write authorizes (by id or by natural key). */
  afterNextRead(between: () => Promise<void>): void;
}

function interleavingStore(store: Store): InterleavingStore {
  let pending: (() => Promise<void>) | undefined;
  const thenPending = async <T>(read: Promise<T>): Promise<T> => {
    const result = await read;
    const between = pending;
    pending = undefined;
    if (between) await between();
    return result;
  };
  const wrapped = new Proxy(store, {
    get(target, property) {
      if (property === 'get') return (...args: Parameters<Store['get']>) => thenPending(target.get(...args));
      if (property === 'findByIdentity')
        return (...args: Parameters<Store['findByIdentity']>) => thenPending(target.findByIdentity(...args));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: wrapped, afterNextRead: (between) => void (pending = between) };
}

describeEachStore('writes authorized against the state they replace', (stores) => {
  let edfi: EdFiTestServer;
  let interleave: InterleavingStore;
  let districtA: DataClient;
  let enrollmentId: string;

  /** A system PUT of the enrolment: a key change to another school, or another exit date. */
  const systemPutEnrollment = (body: object) =>
    systemPut(edfi.store, edfi.registry, 'studentSchoolAssociations', enrollmentId, body);
  const moveToSchoolB = () => systemPutEnrollment(enrollment('S1', SCHOOL_B));
  const storedEnrollment = async () =>
    JSON.parse((await edfi.store.get(resourceOf('studentSchoolAssociations'), enrollmentId))!.bodyJson) as object;
  const resourceOf = (endpoint: string) => edfi.registry.getResource('ed-fi', endpoint)!;

  beforeEach(async () => {
    edfi = await startEdFiServer({
      store: await stores.newSpec(),
      enforceAuthorization: true,
      wrapStore: (store) => (interleave = interleavingStore(store)).store,
    });
    const seed = (endpoint: string, document: object) => systemPost(edfi.store, edfi.registry, endpoint, document);
    await seed('localEducationAgencies', localEducationAgency(LEA_A));
    await seed('localEducationAgencies', localEducationAgency(LEA_B));
    await seed('schools', school(SCHOOL_A, LEA_A));
    await seed('schools', school(SCHOOL_B, LEA_B));
    await seed('students', student('S1'));
    enrollmentId = await seed('studentSchoolAssociations', enrollment('S1', SCHOOL_A));
    // An earlier enrolment keeps the student in district A's reach whichever school the other one moves to.
    await seed('studentSchoolAssociations', { ...enrollment('S1', SCHOOL_A), entryDate: '2020-08-24' });
    districtA = await dataClient(edfi, 'SIS Vendor', [LEA_A]);
  });
  afterEach(() => edfi.close());

  it('refuses a DELETE when the item moved out of reach after it was authorized', async () => {
    interleave.afterNextRead(moveToSchoolB);
    const response = await districtA.send('DELETE', `studentSchoolAssociations/${enrollmentId}`);
    expect(response.status, response.body).toBe(403);
    expect(await storedEnrollment()).toMatchObject({ schoolReference: { schoolId: SCHOOL_B } });
  });

  it('refuses a PUT when the item moved out of reach after it was authorized', async () => {
    interleave.afterNextRead(moveToSchoolB);
    const body = { ...enrollment('S1', SCHOOL_A), exitWithdrawDate: '2022-06-01' };
    const response = await districtA.send('PUT', `studentSchoolAssociations/${enrollmentId}`, body);
    expect(response.status, response.body).toBe(403);
    expect(await storedEnrollment()).toMatchObject({ schoolReference: { schoolId: SCHOOL_B } });
  });

  it('lets a write through when the item changed in between but kept its key (what authorization reads)', async () => {
    interleave.afterNextRead(() =>
      systemPutEnrollment({ ...enrollment('S1', SCHOOL_A), exitWithdrawDate: '2022-01-01' }),
    );
    const body = { ...enrollment('S1', SCHOOL_A), exitWithdrawDate: '2022-06-01' };
    const response = await districtA.send('PUT', `studentSchoolAssociations/${enrollmentId}`, body);
    expect(response.status, response.body).toBe(204);
    expect(await storedEnrollment()).toMatchObject({ exitWithdrawDate: '2022-06-01' });
  });

  it('answers 409 multi-user-conflict when the item is replaced again during the second attempt', async () => {
    const later = { ...enrollment('S1', SCHOOL_A), entryDate: '2023-08-23' };
    const create = () => systemPost(edfi.store, edfi.registry, 'studentSchoolAssociations', later);
    const recreate = async () => {
      const associations = resourceOf('studentSchoolAssociations');
      const { items } = await edfi.store.list(associations, {
        filters: [{ field: 'entryDate', value: later.entryDate }],
        offset: 0,
        limit: 1,
        totalCount: false,
      });
      await edfi.store.delete(associations, items[0]!.id);
      await create();
    };
    // First attempt: found none, then another writer creates it; second: found it, then it is deleted and re-created.
    interleave.afterNextRead(async () => {
      await create();
      interleave.afterNextRead(recreate);
    });
    const response = await districtA.send('POST', 'studentSchoolAssociations', {
      ...later,
      exitWithdrawDate: '2024-01-01',
    });
    expect(response.status, response.body).toBe(409);
    expect(response.json<{ type: string }>().type).toBe('urn:ed-fi:api:data-conflict:multi-user-conflict');
  });

  it('refuses a PUT when a subject outside the key moved the item out of reach after it was authorized', async () => {
    const action = (schoolId: number, actualDisciplineActionLength?: number) => ({
      disciplineActionIdentifier: 'DA-1',
      disciplineDate: '2021-10-01',
      disciplines: [{ disciplineDescriptor: 'uri://ed-fi.org/DisciplineDescriptor#Community Service' }],
      responsibilitySchoolReference: { schoolId },
      studentReference: { studentUniqueId: 'S1' },
      ...(actualDisciplineActionLength === undefined ? {} : { actualDisciplineActionLength }),
    });
    const id = await systemPost(edfi.store, edfi.registry, 'disciplineActions', action(SCHOOL_A));
    interleave.afterNextRead(() => systemPut(edfi.store, edfi.registry, 'disciplineActions', id, action(SCHOOL_B)));
    const response = await districtA.send('PUT', `disciplineActions/${id}`, action(SCHOOL_A, 2));
    expect(response.status, response.body).toBe(403);
    const stored = await edfi.store.get(resourceOf('disciplineActions'), id);
    expect(JSON.parse(stored!.bodyJson)).toMatchObject({ responsibilitySchoolReference: { schoolId: SCHOOL_B } });
  });

  it('refuses a PUT when a securable value outside the key (an own namespace) changed after it was authorized', async () => {
    const content = (namespace: string, uri: string) => ({
      contentIdentifier: 'EC-1',
      namespace,
      learningResourceMetadataURI: uri,
    });
    const contentId = await systemPost(edfi.store, edfi.registry, 'educationContents', content(NS_A, 'uri://a/1'));
    const vendorA = await dataClient(edfi, 'SIS Vendor', [LEA_A], [NS_A]);
    interleave.afterNextRead(() =>
      systemPut(edfi.store, edfi.registry, 'educationContents', contentId, content(NS_B, 'uri://b/1')),
    );
    const response = await vendorA.send('PUT', `educationContents/${contentId}`, content(NS_A, 'uri://a/2'));
    expect(response.status, response.body).toBe(403);
    const stored = await edfi.store.get(resourceOf('educationContents'), contentId);
    expect(JSON.parse(stored!.bodyJson)).toMatchObject(content(NS_B, 'uri://b/1'));
  });

  it('refuses a POST authorized as a create when the item was created before it was written', async () => {
    const creator = await dataClient(edfi, 'Bootstrap Descriptors and EdOrgs', []);
    const schoolC = school(3001, LEA_A);
    interleave.afterNextRead(() => systemPost(edfi.store, edfi.registry, 'schools', schoolC).then(() => undefined));
    const response = await creator.send('POST', 'schools', { ...schoolC, nameOfInstitution: 'Overwritten' });
    expect(response.status, response.body).toBe(403);
    expect(response.json<{ type: string }>().type).toBe('urn:ed-fi:api:security:authorization:access-denied:action');
    const stored = await edfi.store.list(resourceOf('schools'), {
      filters: [],
      offset: 0,
      limit: 10,
      totalCount: false,
    });
    expect(stored.items.map((item) => JSON.parse(item.bodyJson) as object)).toContainEqual(
      expect.objectContaining({ schoolId: 3001, nameOfInstitution: 'School 3001' }),
    );
  });
});
