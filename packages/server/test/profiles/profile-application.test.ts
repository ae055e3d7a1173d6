// Profiles applied to data requests (contract §9.1), table-driven over profiles that use every construct of
// Ed-Fi-ODS-API-Profiles.xsd: each readable one on GET by id, GET of the collection and the change feed (the list
// with a change-version window; /deletes carries keys only), each writable one on POST (create and upsert) and PUT, on
// each store.
import type { InjectResponse } from '@edfi-api/framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { leaDocument } from '../support/documents.js';
import {
  assessment,
  credential,
  idOf,
  importAll,
  PERIOD,
  profileXml,
  readable,
  SYSTEM,
  writable,
} from './profile-fixtures.js';

type Doc = Record<string, unknown>;
type Selection = [string, string];

interface ReadRow {
  readonly name: string;
  readonly resource: 'Assessment' | 'Credential';
  readonly read: Selection;
  /** The root members the profile shows, beside id, _etag and _lastModifiedDate. */
  readonly members: readonly string[];
  readonly nested?: (shown: Doc) => void;
}

const ASSESSMENT_MEMBERS = [
  'academicSubjects',
  'assessedGradeLevels',
  'assessmentCategoryDescriptor',
  'assessmentFamily',
  'assessmentIdentifier',
  'assessmentTitle',
  'assessmentVersion',
  'contentStandard',
  'educationOrganizationReference',
  'identificationCodes',
  'languages',
  'namespace',
  'performanceLevels',
  'periods',
  'platformTypes',
  'programs',
  'scores',
  'sections',
];
const CREDENTIAL_MEMBERS = [
  '_ext',
  'academicSubjects',
  'credentialIdentifier',
  'credentialTypeDescriptor',
  'endorsements',
  'gradeLevels',
  'issuanceDate',
  'namespace',
  'stateOfIssueStateAbbreviationDescriptor',
];
const without = (members: readonly string[], ...excluded: string[]) => members.filter((m) => !excluded.includes(m));
const ASSESSMENT_KEY = ['assessmentIdentifier', 'namespace'];
const CREDENTIAL_KEY = ['credentialIdentifier', 'stateOfIssueStateAbbreviationDescriptor'];

const READ_ROWS: readonly ReadRow[] = [
  {
    name: 'IncludeOnly properties (scalar, descriptor, reference); identity always shown',
    resource: 'Assessment',
    read: [
      'IncludeOnly',
      '<Property name="AssessmentTitle"/><Property name="AssessmentCategoryDescriptor"/><Property name="EducationOrganizationReference"/>',
    ],
    members: [...ASSESSMENT_KEY, 'assessmentTitle', 'assessmentCategoryDescriptor', 'educationOrganizationReference'],
    nested: (shown) => expect(shown.educationOrganizationReference).toMatchObject({ educationOrganizationId: 255901 }),
  },
  {
    name: 'ExcludeOnly properties; an identity member listed stays',
    resource: 'Assessment',
    read: [
      'ExcludeOnly',
      '<Property name="AssessmentFamily"/><Property name="AssessmentIdentifier"/><Property name="EducationOrganizationReference"/>',
    ],
    members: without(ASSESSMENT_MEMBERS, 'assessmentFamily', 'educationOrganizationReference'),
  },
  { name: 'IncludeAll', resource: 'Assessment', read: ['IncludeAll', ''], members: ASSESSMENT_MEMBERS },
  { name: 'ExcludeAll: the identity only', resource: 'Assessment', read: ['ExcludeAll', ''], members: ASSESSMENT_KEY },
  {
    name: 'Object IncludeOnly inside IncludeOnly (ODS member name)',
    resource: 'Assessment',
    read: [
      'IncludeOnly',
      '<Object name="AssessmentContentStandard" memberSelection="IncludeOnly"><Property name="Title"/></Object>',
    ],
    members: [...ASSESSMENT_KEY, 'contentStandard'],
    nested: (shown) => expect(shown.contentStandard).toEqual({ title: 'Standard' }),
  },
  {
    name: 'Object ExcludeOnly with a nested Collection ExcludeAll (JSON member names)',
    resource: 'Assessment',
    read: [
      'IncludeOnly',
      '<Object name="contentStandard" memberSelection="ExcludeOnly"><Property name="Version"/>' +
        '<Collection name="authors" memberSelection="ExcludeAll"/></Object>',
    ],
    members: [...ASSESSMENT_KEY, 'contentStandard'],
    nested: (shown) =>
      expect(shown.contentStandard).toEqual({ authors: [{ author: 'Ann' }, { author: 'Bob' }], title: 'Standard' }),
  },
  {
    name: 'Collection IncludeOnly with an IncludeOnly item filter by code value',
    resource: 'Assessment',
    read: [
      'IncludeOnly',
      '<Collection name="AssessmentPeriods" memberSelection="IncludeOnly">' +
        '<Filter propertyName="AssessmentPeriodDescriptor" filterMode="IncludeOnly"><Value>Fall</Value></Filter></Collection>',
    ],
    members: [...ASSESSMENT_KEY, 'periods'],
    nested: (shown) => expect(shown.periods).toEqual([{ assessmentPeriodDescriptor: `${PERIOD}Fall` }]),
  },
  {
    name: 'Collection ExcludeOnly with an ExcludeOnly item filter by URI',
    resource: 'Assessment',
    read: [
      'ExcludeOnly',
      '<Collection name="AssessmentPeriods" memberSelection="ExcludeOnly"><Property name="BeginDate"/>' +
        `<Filter propertyName="AssessmentPeriodDescriptor" filterMode="ExcludeOnly"><Value>${PERIOD}Fall</Value></Filter></Collection>`,
    ],
    members: ASSESSMENT_MEMBERS,
    nested: (shown) => expect(shown.periods).toEqual([{ assessmentPeriodDescriptor: `${PERIOD}End of Year` }]),
  },
  {
    name: 'Collection IncludeAll with a filter keeping no item',
    resource: 'Assessment',
    read: [
      'IncludeOnly',
      '<Collection name="AssessmentIdentificationCodes" memberSelection="IncludeAll">' +
        '<Filter propertyName="AssessmentIdentificationSystemDescriptor" filterMode="IncludeOnly"><Value>State</Value></Filter></Collection>',
    ],
    members: [...ASSESSMENT_KEY, 'identificationCodes'],
    nested: (shown) => expect(shown.identificationCodes).toEqual([]),
  },
  {
    name: 'IncludeOnly without Extension: no _ext',
    resource: 'Credential',
    read: ['IncludeOnly', '<Property name="IssuanceDate"/>'],
    members: [...CREDENTIAL_KEY, 'issuanceDate'],
  },
  {
    name: 'Extension IncludeOnly (its collection left out) with logicalSchema',
    resource: 'Credential',
    read: [
      'IncludeOnly',
      '<Extension name="TPDM" memberSelection="IncludeOnly" logicalSchema="TPDM"><Property name="CertificationTitle"/></Extension>',
    ],
    members: [...CREDENTIAL_KEY, '_ext'],
    nested: (shown) => expect(shown._ext).toEqual({ tpdm: { certificationTitle: 'Teacher' } }),
  },
  {
    name: 'Extension ExcludeOnly with a Collection ExcludeAll inside ExcludeOnly',
    resource: 'Credential',
    read: [
      'ExcludeOnly',
      '<Property name="IssuanceDate"/><Extension name="tpdm" memberSelection="ExcludeOnly"><Property name="CertificationTitle"/>' +
        '<Collection name="CredentialStudentAcademicRecords" memberSelection="ExcludeAll"/></Extension>',
    ],
    members: without(CREDENTIAL_MEMBERS, 'issuanceDate'),
    nested: (shown) =>
      expect(shown._ext).toEqual({ tpdm: { boardCertificationIndicator: true, studentAcademicRecords: [] } }),
  },
  {
    name: 'Extension ExcludeAll',
    resource: 'Credential',
    read: ['IncludeAll', '<Extension name="TPDM" memberSelection="ExcludeAll"/>'],
    members: CREDENTIAL_MEMBERS,
    nested: (shown) => expect(shown._ext).toEqual({ tpdm: {} }),
  },
];

const SERVER_FIELDS = ['_etag', '_lastModifiedDate', 'id'];
const keysOf = (doc: Doc) => Object.keys(doc).sort();
const expectedKeys = (members: readonly string[]) => [...members, ...SERVER_FIELDS].sort();

let server: EdFiTestServer;
let serial = 0;
const nextId = (prefix: string) => `${prefix}-${++serial}`;
const endpointOf = (resource: string) => (resource === 'Assessment' ? '/ed-fi/assessments' : '/ed-fi/credentials');
const documentOf = (resource: string, identifier: string) =>
  resource === 'Assessment' ? assessment(identifier) : credential(identifier);
const keyQuery = (resource: string, identifier: string) =>
  resource === 'Assessment' ? `assessmentIdentifier=${identifier}` : `credentialIdentifier=${identifier}`;

async function created(path: string, body: Doc, headers: Record<string, string> = {}): Promise<string> {
  const response = await server.data('POST', path, { body, headers });
  expect(response.status, response.body).toBe(201);
  return idOf(response.headers.location);
}

const profileName = (index: number) => `Read-${index}`;

function shownBody(response: InjectResponse, resource: string, profile: string): Doc[] {
  expect(response.status, response.body).toBe(200);
  expect(response.headers['content-type']).toBe(
    `${readable(resource.toLowerCase(), profile.toLowerCase())}; charset=utf-8`,
  );
  const body = response.json<Doc | Doc[]>();
  return Array.isArray(body) ? body : [body];
}

interface WriteRow {
  readonly name: string;
  readonly resource: 'Assessment' | 'Credential';
  readonly write: Selection;
  /** The body sent through the profile, made from the document first stored without it. */
  readonly edit: (original: Doc) => Doc;
  /** The stored document after the PUT (or POST) through the profile, given the original. */
  readonly expectStored: (stored: Doc, original: Doc) => void;
  /** What a POST creating a new document through the profile answers. */
  /** What a POST creating a new document through the profile answers: 201, or the data-policy 400's specifics. */
  readonly create: 201 | { detail?: string; errors?: string[] };
  /** Whether the PUT changes the stored document (false when the profile ignores everything the edit changed). */
  readonly changes?: false;
}

const byDescriptor = (items: unknown): unknown[] =>
  [...(items as Doc[])].sort((a, b) =>
    String(a.assessmentPeriodDescriptor).localeCompare(String(b.assessmentPeriodDescriptor)),
  );
const titleChanged = (doc: Doc): Doc => ({ ...doc, assessmentTitle: 'Changed', assessmentFamily: 'Changed' });
const createExcluded = (profile: string) => ({
  detail: `The Profile definition for '${profile}' excludes (or does not include) one or more required data elements needed to create the resource.`,
});

const WRITE_ROWS: readonly WriteRow[] = [
  {
    name: 'ExcludeOnly property: ignored on write, the stored value kept',
    resource: 'Assessment',
    write: ['ExcludeOnly', '<Property name="AssessmentFamily"/>'],
    edit: titleChanged,
    expectStored: (stored) => expect([stored.assessmentTitle, stored.assessmentFamily]).toEqual(['Changed', 'Family']),
    create: 201,
  },
  {
    name: 'IncludeOnly leaving out a required member: no create, updates keep it',
    resource: 'Assessment',
    write: ['IncludeOnly', '<Property name="AssessmentFamily"/>'],
    edit: titleChanged,
    expectStored: (stored, original) => {
      expect([stored.assessmentTitle, stored.assessmentFamily]).toEqual(['Reading', 'Changed']);
      expect(stored.periods).toEqual(original.periods);
      expect(stored.educationOrganizationReference).toEqual(original.educationOrganizationReference);
    },
    create: createExcluded('Write-1'),
  },
  {
    name: 'IncludeAll',
    resource: 'Assessment',
    write: ['IncludeAll', ''],
    edit: titleChanged,
    expectStored: (stored) => expect([stored.assessmentTitle, stored.assessmentFamily]).toEqual(['Changed', 'Changed']),
    create: 201,
  },
  {
    name: 'ExcludeAll: everything but the key kept',
    resource: 'Assessment',
    write: ['ExcludeAll', ''],
    edit: (doc) => ({ ...titleChanged(doc), periods: [] }),
    expectStored: (stored, original) => {
      expect([stored.assessmentTitle, stored.assessmentFamily]).toEqual(['Reading', 'Family']);
      expect(stored.periods).toEqual(original.periods);
    },
    create: createExcluded('Write-3'),
    changes: false,
  },
  {
    name: 'Object ExcludeOnly: the object member kept',
    resource: 'Assessment',
    write: [
      'IncludeAll',
      '<Object name="AssessmentContentStandard" memberSelection="ExcludeOnly"><Property name="Version"/></Object>',
    ],
    edit: (doc) => ({ ...doc, contentStandard: { title: 'New', version: 'v9', authors: [{ author: 'Cy' }] } }),
    expectStored: (stored) =>
      expect(stored.contentStandard).toEqual({ authors: [{ author: 'Cy' }], title: 'New', version: 'v1' }),
    create: 201,
  },
  {
    name: 'Collection ExcludeOnly: each matched item keeps its excluded member',
    resource: 'Assessment',
    write: [
      'IncludeAll',
      '<Collection name="AssessmentPeriods" memberSelection="ExcludeOnly"><Property name="BeginDate"/></Collection>',
    ],
    edit: (doc) => ({
      ...doc,
      periods: [
        { assessmentPeriodDescriptor: `${PERIOD}Fall`, beginDate: '2000-01-01', endDate: '2024-12-20' },
        { assessmentPeriodDescriptor: `${PERIOD}Spring`, beginDate: '2000-01-01' },
      ],
    }),
    expectStored: (stored) =>
      expect(stored.periods).toEqual([
        { assessmentPeriodDescriptor: `${PERIOD}Fall`, beginDate: '2024-09-01', endDate: '2024-12-20' },
        { assessmentPeriodDescriptor: `${PERIOD}Spring` },
      ]),
    create: 201,
  },
  {
    name: 'Collection IncludeAll with an item filter: items it hides are kept',
    resource: 'Assessment',
    write: [
      'IncludeAll',
      '<Collection name="AssessmentPeriods" memberSelection="IncludeAll">' +
        '<Filter propertyName="AssessmentPeriodDescriptor" filterMode="IncludeOnly"><Value>Fall</Value><Value>Spring</Value></Filter></Collection>',
    ],
    edit: (doc) => ({ ...doc, periods: [{ assessmentPeriodDescriptor: `${PERIOD}Spring`, beginDate: '2025-02-01' }] }),
    expectStored: (stored) =>
      expect(byDescriptor(stored.periods)).toEqual([
        { assessmentPeriodDescriptor: `${PERIOD}End of Year`, beginDate: '2025-05-01' },
        { assessmentPeriodDescriptor: `${PERIOD}Spring`, beginDate: '2025-02-01' },
      ]),
    // The new document's End of Year period is one the filter refuses.
    create: {
      errors: [
        "A supplied 'AssessmentPeriod' has a descriptor value that does not conform with the filter values defined by profile 'Write-6'.",
      ],
    },
  },
  {
    name: 'Collection leaving out a required item member: existing items keep it',
    resource: 'Assessment',
    write: [
      'IncludeAll',
      '<Collection name="AssessmentIdentificationCodes" memberSelection="ExcludeOnly"><Property name="IdentificationCode"/></Collection>',
    ],
    edit: (doc) => ({
      ...doc,
      identificationCodes: [{ assessmentIdentificationSystemDescriptor: `${SYSTEM}District`, identificationCode: 'X' }],
    }),
    expectStored: (stored) =>
      expect(stored.identificationCodes).toEqual([
        { assessmentIdentificationSystemDescriptor: `${SYSTEM}District`, identificationCode: 'D1' },
      ]),
    create: {
      detail:
        "The Profile definition for 'Write-7' excludes (or does not include) one or more required data elements needed to create a child item of type 'AssessmentIdentificationCode' in the resource.",
    },
    changes: false,
  },
  {
    name: 'Extension ExcludeOnly: the extension member kept',
    resource: 'Credential',
    write: [
      'IncludeAll',
      '<Extension name="TPDM" memberSelection="ExcludeOnly"><Property name="CertificationTitle"/></Extension>',
    ],
    edit: (doc) => ({ ...doc, _ext: { tpdm: { certificationTitle: 'Other', boardCertificationIndicator: false } } }),
    expectStored: (stored) =>
      expect(stored._ext).toEqual({
        tpdm: { boardCertificationIndicator: false, certificationTitle: 'Teacher', studentAcademicRecords: [] },
      }),
    create: 201,
  },
  {
    name: 'IncludeOnly without Extension: the stored _ext kept',
    resource: 'Credential',
    write: [
      'IncludeOnly',
      '<Property name="IssuanceDate"/><Property name="CredentialTypeDescriptor"/><Property name="Namespace"/>',
    ],
    edit: (doc) => ({ ...doc, issuanceDate: '2021-02-02', _ext: { tpdm: { certificationTitle: 'Other' } } }),
    expectStored: (stored) => {
      expect(stored.issuanceDate).toBe('2021-02-02');
      expect(stored._ext).toEqual({
        tpdm: { boardCertificationIndicator: true, certificationTitle: 'Teacher', studentAcademicRecords: [] },
      });
    },
    create: 201,
  },
];

function withoutServerFields(doc: Doc): Doc {
  const { id: _id, _etag, _lastModifiedDate, ...rest } = doc;
  return rest;
}

describeEachStore('profiles applied', (stores) => {
  beforeAll(async () => {
    server = await startEdFiServer({ store: await stores.newSpec() });
    expect((await server.data('POST', '/ed-fi/localEducationAgencies', { body: leaDocument })).status).toBe(201);
    await importAll(server, [
      ...READ_ROWS.map((row, index) => profileXml(profileName(index), row.resource, row.read)),
      ...WRITE_ROWS.map((row, index) => profileXml(`Write-${index}`, row.resource, undefined, row.write)),
    ]);
  });
  afterAll(() => server.close());

  describe.each(READ_ROWS.map((row, index) => ({ ...row, index })))('readable $name', (row) => {
    const profile = profileName(row.index);
    const accept = { accept: readable(row.resource.toLowerCase(), profile) };
    let identifier: string;
    let id: string;
    let full: Doc;
    beforeAll(async () => {
      identifier = nextId(row.resource);
      id = await created(endpointOf(row.resource), documentOf(row.resource, identifier));
      full = (await server.data('GET', `${endpointOf(row.resource)}/${id}`)).json<Doc>();
    });

    const check = (shown: Doc): void => {
      expect(keysOf(shown)).toEqual(expectedKeys(row.members));
      expect(shown.id).toBe(id);
      expect(shown._etag).toBe(full._etag);
      for (const member of row.members)
        if (row.nested === undefined || member === 'assessmentTitle') expect(shown[member]).toEqual(full[member]);
      row.nested?.(shown);
    };

    it('on GET by id', async () => {
      const [shown] = shownBody(
        await server.data('GET', `${endpointOf(row.resource)}/${id}`, { headers: accept }),
        row.resource,
        profile,
      );
      check(shown!);
    });

    it('on GET of the collection', async () => {
      const path = `${endpointOf(row.resource)}?${keyQuery(row.resource, identifier)}`;
      const shown = shownBody(await server.data('GET', path, { headers: accept }), row.resource, profile);
      expect(shown).toHaveLength(1);
      check(shown[0]!);
    });

    it('on the change feed (minChangeVersion), and /deletes keeps the keys', async () => {
      const path = `${endpointOf(row.resource)}?minChangeVersion=0&${keyQuery(row.resource, identifier)}`;
      const shown = shownBody(await server.data('GET', path, { headers: accept }), row.resource, profile);
      check(shown[0]!);
      const deletes = await server.data('GET', `${endpointOf(row.resource)}/deletes?minChangeVersion=0`, {
        headers: accept,
      });
      expect(deletes.status).toBe(200);
      expect(deletes.headers['content-type']).not.toContain('vnd.ed-fi');
    });
  });

  describe.each(WRITE_ROWS.map((row, index) => ({ ...row, index })))('writable $name', (row) => {
    const profile = `Write-${row.index}`;
    const contentType = { 'content-type': writable(row.resource.toLowerCase(), profile) };
    const endpoint = () => endpointOf(row.resource);

    async function stored(id: string): Promise<Doc> {
      return (await server.data('GET', `${endpoint()}/${id}`)).json<Doc>();
    }

    async function original(): Promise<{ id: string; doc: Doc }> {
      const id = await created(endpoint(), documentOf(row.resource, nextId(row.resource)));
      return { id, doc: await stored(id) };
    }

    it('on PUT', async () => {
      const { id, doc } = await original();
      const body = row.edit(withoutServerFields(doc));
      const response = await server.data('PUT', `${endpoint()}/${id}`, { body, headers: contentType });
      expect(response.status, response.body).toBe(204);
      row.expectStored(await stored(id), doc);
    });

    it('on POST of an existing key (an update)', async () => {
      const { id, doc } = await original();
      const body = row.edit(withoutServerFields(doc));
      const response = await server.data('POST', endpoint(), { body, headers: contentType });
      expect(response.status, response.body).toBe(200);
      row.expectStored(await stored(id), doc);
    });

    it('on POST of a new key', async () => {
      const body = documentOf(row.resource, nextId(row.resource));
      const response = await server.data('POST', endpoint(), { body, headers: contentType });
      if (row.create === 201) {
        expect(response.status, response.body).toBe(201);
        return;
      }
      expect(response.status).toBe(400);
      expect(response.json()).toMatchObject({
        type: 'urn:ed-fi:api:bad-request:data-policy-enforced',
        title: 'Data Policy Enforced',
        detail: 'The data cannot be saved because a data policy has been applied to the request that prevents it.',
        ...row.create,
      });
      const listed = await server.data(
        'GET',
        `${endpoint()}?${keyQuery(row.resource, String(body.assessmentIdentifier))}`,
      );
      expect(listed.json()).toEqual([]);
    });

    it('on the change feed: the write shows as a change', async () => {
      const { id, doc } = await original();
      const before = Number((await server.data('GET', `${endpoint()}/${id}`)).json<Doc>()._etag);
      await server.data('PUT', `${endpoint()}/${id}`, {
        body: row.edit(withoutServerFields(doc)),
        headers: contentType,
      });
      const path = `${endpoint()}?minChangeVersion=${before + 1}&${keyQuery(row.resource, String(doc.assessmentIdentifier ?? doc.credentialIdentifier))}`;
      const changed = (await server.data('GET', path)).json<Doc[]>();
      expect(changed.map((item) => item.id)).toEqual(row.changes === false ? [] : [id]);
    });
  });
});
