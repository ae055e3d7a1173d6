// Extensions served by the model (Sample, Homograph): their resources under /data/v3/{extension}, `_ext.{extension}`
// on core resources (inside collection items too) stored and read back exactly, the same names in two namespaces
// kept apart, and a store that does not serve an extension ignoring its members (as unknown members) and 404ing its
// paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const ID_AT_END = /\/([0-9a-f]{32})$/;

const student = { studentUniqueId: 'X-1', firstName: 'Ada', lastSurname: 'Lovelace', birthDate: '2010-12-10' };
const studentWithPets = {
  ...student,
  _ext: {
    sample: {
      petPreference: { minimumWeight: 5, maximumWeight: 20 },
      pets: [{ petName: 'Rex', isFixed: true }],
      aquaticPets: [],
      favoriteBooks: [],
    },
  },
};

const contactWithBusRoute = {
  contactUniqueId: 'C-1',
  firstName: 'Grace',
  lastSurname: 'Hopper',
  addresses: [
    {
      addressTypeDescriptor: 'uri://ed-fi.org/AddressTypeDescriptor#Home',
      streetNumberName: '1 Main St',
      city: 'Austin',
      stateAbbreviationDescriptor: 'uri://ed-fi.org/StateAbbreviationDescriptor#TX',
      postalCode: '78701',
      _ext: { sample: { onBusRoute: true, schoolDistricts: [{ schoolDistrict: 'Austin ISD' }] } },
    },
  ],
};

async function idOf(app: EdFiTestServer, path: string, body: unknown): Promise<string> {
  const created = await app.data('POST', path, { body });
  expect(created.status, created.body).toBe(201);
  return ID_AT_END.exec(created.headers.location!)![1]!;
}

describe('a store serving Sample and Homograph', () => {
  let app: EdFiTestServer;
  beforeAll(async () => {
    app = await startEdFiServer({ extensions: ['sample', 'homograph'] });
  });
  afterAll(() => app.close());

  it('serves buses and busRoutes, and refuses to delete a referenced bus', async () => {
    const busId = await idOf(app, '/sample/buses', { busId: 'B-1' });
    const route = {
      busReference: { busId: 'B-1' },
      busRouteNumber: 7,
      busRouteDirection: 'North',
      expectedTransitTime: '45',
      hoursPerWeek: 10.5,
      operatingCost: 1000,
      serviceAreaPostalCodes: [{ serviceAreaPostalCode: '78701' }],
      startTimes: [{ startTime: '07:15:00' }],
      telephones: [
        {
          telephoneNumber: '555-0100',
          telephoneNumberTypeDescriptor: 'uri://ed-fi.org/TelephoneNumberTypeDescriptor#Emergency 1',
        },
      ],
    };
    const routeId = await idOf(app, '/sample/busRoutes', route);
    const read = await app.data('GET', `/sample/busRoutes/${routeId}`);
    expect(read.status).toBe(200);
    expect(read.json()).toMatchObject({ busReference: { busId: 'B-1' }, busRouteNumber: 7 });
    expect((await app.data('DELETE', `/sample/buses/${busId}`)).status).toBe(409);
    expect((await app.data('GET', '/sample/busRoutes?busRouteNumber=7')).json()).toHaveLength(1);
  });

  it('round-trips _ext.sample on a core student exactly', async () => {
    const id = await idOf(app, '/ed-fi/students', studentWithPets);
    const read = await app.data('GET', `/ed-fi/students/${id}`);
    const { id: _id, _etag, _lastModifiedDate, ...body } = read.json<Record<string, unknown>>();
    // Like the ODS, the read renders the core collections the document left out as empty arrays.
    expect(body).toEqual({
      ...studentWithPets,
      identificationDocuments: [],
      otherNames: [],
      personalIdentificationDocuments: [],
      visas: [],
    });
  });

  it('validates _ext.sample members as the ODS does', async () => {
    const response = await app.data('POST', '/ed-fi/students', {
      body: { ...student, studentUniqueId: 'X-2', _ext: { sample: { pets: [{ isFixed: true }] } } },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.json())).toContain('$._ext.sample.pets[0].petName');
  });

  it('keeps /ed-fi/students and /homograph/students apart', async () => {
    await idOf(app, '/homograph/names', { firstName: 'Ada', lastSurname: 'Lovelace' });
    await idOf(app, '/homograph/schoolYearTypes', { schoolYear: '2026' });
    await idOf(app, '/homograph/students', {
      studentNameReference: { firstName: 'Ada', lastSurname: 'Lovelace' },
      schoolYearTypeReference: { schoolYear: '2026' },
      address: { city: 'Austin' },
    });
    const homograph = (await app.data('GET', '/homograph/students')).json<Record<string, unknown>[]>();
    const edfi = (await app.data('GET', '/ed-fi/students')).json<Record<string, unknown>[]>();
    expect(homograph).toHaveLength(1);
    expect(homograph[0]).toHaveProperty('studentNameReference');
    expect(edfi.every((document) => 'studentUniqueId' in document)).toBe(true);
  });
});

describe('a store not serving Sample', () => {
  let app: EdFiTestServer;
  beforeAll(async () => {
    app = await startEdFiServer();
  });
  afterAll(() => app.close());

  it('404s /sample/buses', async () => {
    expect((await app.data('GET', '/sample/buses')).status).toBe(404);
  });

  // The ODS's ExtensionsConverter skips an `_ext` member whose schema is none the API knows.
  it('skips _ext.sample, at the root and inside collection items: 201, not stored', async () => {
    const response = await app.data('POST', '/ed-fi/students', { body: studentWithPets });
    expect(response.status).toBe(201);
    const read = await app.data('GET', `/ed-fi/students/${ID_AT_END.exec(response.headers.location!)![1]!}`);
    expect(read.json()).not.toHaveProperty('_ext');

    const contactId = await idOf(app, '/ed-fi/contacts', contactWithBusRoute);
    const contact = (await app.data('GET', `/ed-fi/contacts/${contactId}`)).json<{ addresses: object[] }>();
    expect(contact.addresses).toHaveLength(1);
    expect(contact.addresses[0]).not.toHaveProperty('_ext');
  });
});

describe('extension resources under the shipped claim sets', () => {
  let app: EdFiTestServer;
  beforeAll(async () => {
    app = await startEdFiServer({ extensions: ['sample', 'homograph'], enforceAuthorization: true });
  });
  afterAll(() => app.close());

  it('lets the Sandbox claim set (granted on domains/tpdm) write and read them', async () => {
    const id = await idOf(app, '/sample/buses', { busId: 'B-9' });
    expect((await app.data('GET', `/sample/buses/${id}`)).status).toBe(200);
    expect((await app.data('GET', '/sample/buses/deletes?minChangeVersion=0')).status).toBe(200);
  });

  it('forbids a claim set the rule does not grant them (SIS Vendor)', async () => {
    const token = await issueToken(app.server, app.store, {
      claimSet: 'SIS Vendor',
      educationOrganizationIds: [255901],
    });
    const response = await app.data('POST', '/sample/buses', {
      body: { busId: 'B-10' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
  });
});

describe('Homograph identity updates', () => {
  let app: EdFiTestServer;
  beforeAll(async () => {
    app = await startEdFiServer({ extensions: ['homograph'] });
  });
  afterAll(() => app.close());

  it('changes a studentSchoolAssociation identity by PUT and cascades it into the staff that references it', async () => {
    await idOf(app, '/homograph/names', { firstName: 'Ada', lastSurname: 'Lovelace' });
    await idOf(app, '/homograph/names', { firstName: 'Grace', lastSurname: 'Hopper' });
    await idOf(app, '/homograph/schoolYearTypes', { schoolYear: '2026' });
    for (const schoolName of ['North', 'South']) {
      await idOf(app, '/homograph/schools', { schoolName, schoolYearTypeReference: { schoolYear: '2026' } });
    }
    await idOf(app, '/homograph/students', {
      studentNameReference: { firstName: 'Ada', lastSurname: 'Lovelace' },
      schoolYearTypeReference: { schoolYear: '2026' },
      address: { city: 'Austin' },
    });
    const association = {
      schoolReference: { schoolName: 'North' },
      studentReference: { studentFirstName: 'Ada', studentLastSurname: 'Lovelace' },
    };
    const associationId = await idOf(app, '/homograph/studentSchoolAssociations', association);
    const staffId = await idOf(app, '/homograph/staffs', {
      staffNameReference: { firstName: 'Grace', lastSurname: 'Hopper' },
      studentSchoolAssociations: [
        { studentSchoolAssociationReference: { ...association.studentReference, schoolName: 'North' } },
      ],
      address: { city: 'Austin' },
    });
    const moved = { ...association, schoolReference: { schoolName: 'South' } };
    const put = await app.data('PUT', `/homograph/studentSchoolAssociations/${associationId}`, { body: moved });
    expect(put.status, put.body).toBe(204);
    const staff = (await app.data('GET', `/homograph/staffs/${staffId}`)).json<{
      studentSchoolAssociations: { studentSchoolAssociationReference: { schoolName: string } }[];
    }>();
    expect(staff.studentSchoolAssociations[0]!.studentSchoolAssociationReference.schoolName).toBe('South');
  });
});
