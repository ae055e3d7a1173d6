// `core` and `ext`, the resource catalogue's names of the two namespaces, as aliases of `ed-fi` and `tpdm` on every
// data operation; Location headers and reference links keep the Ed-Fi names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaDocument, schoolDocument } from '../support/documents.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const ID_AT_END = /\/([0-9a-f]{32})$/;

describe('the core and ext namespace aliases', () => {
  let app: EdFiTestServer;

  beforeAll(async () => {
    app = await startEdFiServer();
  });
  afterAll(() => app.close());

  it('create through core, answering a Location under ed-fi, and read back through either name', async () => {
    const created = await app.data('POST', '/core/localEducationAgencies', { body: leaDocument });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(/\/v7\.3\/api\/data\/v3\/ed-fi\/localEducationAgencies\/[0-9a-f]{32}$/);
    const id = ID_AT_END.exec(created.headers.location!)![1]!;
    const viaAlias = await app.data('GET', `/core/localEducationAgencies/${id}`);
    const viaName = await app.data('GET', `/ed-fi/localEducationAgencies/${id}`);
    expect(viaAlias.status).toBe(200);
    expect(viaAlias.json()).toEqual(viaName.json());
  });

  it('keeps ed-fi in the links of items read through core, and in the Location of PUT', async () => {
    const created = await app.data('POST', '/CORE/Schools/', { body: schoolDocument });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(/\/data\/v3\/ed-fi\/Schools\/[0-9a-f]{32}$/);
    const id = ID_AT_END.exec(created.headers.location!)![1]!;
    const [school] = (await app.data('GET', '/core/schools?schoolId=255901001')).json<
      { localEducationAgencyReference: { link: { href: string } } }[]
    >();
    expect(school!.localEducationAgencyReference.link.href).toMatch(/^\/ed-fi\/localEducationAgencies\/[0-9a-f]{32}$/);
    const updated = await app.data('PUT', `/core/schools/${id}`, {
      body: { ...schoolDocument, nameOfInstitution: 'Renamed' },
    });
    expect(updated.status).toBe(204);
    expect(updated.headers.location).toMatch(new RegExp(`/data/v3/ed-fi/schools/${id}$`));
  });

  it('serves tpdm resources through ext: create, list, change feeds, partitions and delete', async () => {
    const body = { codeValue: 'Alias', shortDescription: 'Alias', namespace: 'uri://ed-fi.org/AidTypeDescriptor' };
    const created = await app.data('POST', '/ext/aidTypeDescriptors', { body });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(/\/data\/v3\/tpdm\/aidTypeDescriptors\/[0-9a-f]{32}$/);
    const id = ID_AT_END.exec(created.headers.location!)![1]!;
    const listed = await app.data('GET', '/ext/aidTypeDescriptors?codeValue=Alias');
    expect(listed.json<{ id: string }[]>().map((item) => item.id)).toEqual([id]);
    expect((await app.data('GET', '/ext/aidTypeDescriptors/partitions?number=2')).status).toBe(200);
    expect((await app.data('DELETE', `/ext/aidTypeDescriptors/${id}`)).status).toBe(204);
    const deletes = await app.data('GET', '/ext/aidTypeDescriptors/deletes');
    expect(deletes.status).toBe(200);
    expect(deletes.json<{ id: string }[]>().map((item) => item.id)).toEqual([id]);
    expect((await app.data('GET', '/ext/aidTypeDescriptors/keyChanges')).status).toBe(200);
  });

  it('answers 404 for a resource of the other namespace, as for ed-fi and tpdm', async () => {
    expect((await app.data('GET', '/ext/students')).status).toBe(404);
    expect((await app.data('GET', '/core/aidTypeDescriptors')).status).toBe(404);
  });
});
