// Change feeds and identity updates authorized as the ODS authorizes them (contract §4.4, §4.5, §8): tombstones on
// their old namespace, deleted and re-keyed associations still relating people, key changes on their old values, and
// a refused key change reported before any authorization.
import { afterEach, describe, expect, it } from 'vitest';
import { dataClient } from '../support/data-client.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost } from '../support/system-writes.js';

const READER = 'Ed-Fi API Publisher - Reader';
const SYSTEM = 'E2E-NoFurtherAuthRequiredClaimSet';
const NS_A = 'uri://district-a.org';
const NS_B = 'uri://district-b.org';

const educationContent = (contentIdentifier: string, namespace: string) => ({
  contentIdentifier,
  namespace,
  learningResourceMetadataURI: `${namespace}/${contentIdentifier}`,
});
const contact = (contactUniqueId: string) => ({ contactUniqueId, firstName: 'C', lastSurname: contactUniqueId });

type Entry = { id: string; keyValues?: unknown; oldKeyValues?: unknown; newKeyValues?: unknown };

describeEachStore('change feeds and identity updates under authorization', (stores) => {
  let edfi: EdFiTestServer;

  afterEach(() => edfi.close());

  async function start(data: readonly (readonly [string, object])[]): Promise<void> {
    edfi = await startEdFiServer({ store: await stores.newSpec(), enforceAuthorization: true });
    for (const [resource, document] of data) await systemPost(edfi.store, edfi.registry, resource, document);
  }

  const districts = [
    ['localEducationAgencies', localEducationAgency(100)],
    ['localEducationAgencies', localEducationAgency(200)],
    ['schools', school(1001, 100)],
    ['schools', school(2001, 200)],
  ] as const;

  it('/deletes filters tombstones on the namespace they had (NamespaceBased)', async () => {
    await start([]);
    const system = await dataClient(edfi, SYSTEM, [], []);
    const ids: string[] = [];
    for (const [identifier, namespace] of [
      ['A', NS_A],
      ['B', NS_B],
    ] as const) {
      const created = await system.send('POST', 'educationContents', educationContent(identifier, namespace));
      expect(created.status, created.body).toBe(201);
      ids.push(created.headers.location!.split('/').pop()!);
    }
    const readerA = await dataClient(edfi, READER, [100], [NS_A]);
    const readerB = await dataClient(edfi, READER, [200], [NS_B]);
    expect((await readerA.list<Entry>('educationContents')).items.map((item) => item.id)).toEqual([ids[0]]);
    for (const id of ids) expect((await system.send('DELETE', `educationContents/${id}`)).status).toBe(204);
    for (const [reader, id] of [
      [readerA, ids[0]],
      [readerB, ids[1]],
    ] as const) {
      const deletes = await reader.list<Entry>('educationContents/deletes');
      expect([deletes.items.map((entry) => entry.id), deletes.total]).toEqual([[id], 1]);
    }
  });

  it('/deletes keeps a contact whose student association was deleted before it (deleted associations count)', async () => {
    await start([...districts, ['students', student('S1')], ['studentSchoolAssociations', enrollment('S1', 1001)]]);
    const system = await dataClient(edfi, SYSTEM, [], []);
    const contactId = await systemPost(edfi.store, edfi.registry, 'contacts', contact('C1'));
    const association = await systemPost(edfi.store, edfi.registry, 'studentContactAssociations', {
      studentReference: { studentUniqueId: 'S1' },
      contactReference: { contactUniqueId: 'C1' },
    });
    expect((await system.send('DELETE', `studentContactAssociations/${association}`)).status).toBe(204);
    expect((await system.send('DELETE', `contacts/${contactId}`)).status).toBe(204);
    const district = await dataClient(edfi, READER, [100], []);
    const deletes = await district.list<Entry>('contacts/deletes');
    expect(deletes.items).toEqual([
      { id: contactId, changeVersion: expect.any(Number), keyValues: { contactUniqueId: 'C1' } },
    ]);
    const otherDistrict = await dataClient(edfi, READER, [200], []);
    expect((await otherDistrict.list('contacts/deletes')).total).toBe(0);
  });

  it('/keyChanges authorizes a changed enrollment on its old values: the old school sees it, the new one not', async () => {
    await start([...districts, ['students', student('S1')]]);
    const id = await systemPost(edfi.store, edfi.registry, 'studentSchoolAssociations', enrollment('S1', 1001));
    const system = await dataClient(edfi, SYSTEM, [], []);
    const moved = await system.send('PUT', `studentSchoolAssociations/${id}`, enrollment('S1', 2001));
    expect(moved.status, moved.body).toBe(204);
    const oldDistrict = await dataClient(edfi, READER, [100], []);
    const changes = await oldDistrict.list<Entry>('studentSchoolAssociations/keyChanges');
    expect(changes.items.map(({ id, oldKeyValues, newKeyValues }) => ({ id, oldKeyValues, newKeyValues }))).toEqual([
      {
        id,
        oldKeyValues: { entryDate: '2021-08-23', schoolId: 1001, studentUniqueId: 'S1' },
        newKeyValues: { entryDate: '2021-08-23', schoolId: 2001, studentUniqueId: 'S1' },
      },
    ]);
    const newDistrict = await dataClient(edfi, READER, [200], []);
    expect((await newDistrict.list('studentSchoolAssociations/keyChanges')).total).toBe(0);
  });

  describe('PUT changing the unique id of a person', () => {
    const keyChangeRefusal = (resourceName: string) => ({
      detail: `Identifying values for the ${resourceName} data cannot be changed. Delete and recreate the item instead.`,
      type: 'urn:ed-fi:api:bad-request:data-validation-failed:key-change-not-supported',
      title: 'Key Change Not Supported',
      status: 400,
      correlationId: expect.any(String),
    });

    it('answers 400 key-change-not-supported before authorizing the new unique id', async () => {
      await start([...districts, ['students', student('S1')], ['studentSchoolAssociations', enrollment('S1', 1001)]]);
      const contactId = await systemPost(edfi.store, edfi.registry, 'contacts', contact('C1'));
      await systemPost(edfi.store, edfi.registry, 'studentContactAssociations', {
        studentReference: { studentUniqueId: 'S1' },
        contactReference: { contactUniqueId: 'C1' },
      });
      const vendor = await dataClient(edfi, 'SIS Vendor', [100], []);
      const [{ id: studentId }] = (await vendor.list<Entry>('students')).items as [Entry];
      const renamedStudent = await vendor.send('PUT', `students/${studentId}`, student('S9'));
      expect([renamedStudent.status, renamedStudent.json()]).toEqual([400, keyChangeRefusal('Student')]);
      const renamedContact = await vendor.send('PUT', `contacts/${contactId}`, contact('C9'));
      expect([renamedContact.status, renamedContact.json()]).toEqual([400, keyChangeRefusal('Contact')]);
      expect((await vendor.get(`students/${studentId}`)).json<{ studentUniqueId: string }>().studentUniqueId).toBe(
        'S1',
      );
    });
  });
});
