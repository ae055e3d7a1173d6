// Bulk load of Sample interchange XML (its XSD's elements: Sample descriptors, core documents with `_ext.sample` at the
// root and inside collection items, a reference to a Sample bus) through `load` over HTTP and `load --direct`, the
// documents then read over HTTP; and over HTTP into a server without Sample, which ignores `_ext.sample` and 404s its
// descriptors.
import path from 'node:path';
import type { ApiServer } from '@edfi-api/framework';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allowEveryAction } from '../../src/api/index.js';
import { listen } from '../../src/cli/http-listener.js';
import { createEdFiApp } from '../../src/http/app.js';
import { getModelRegistry, type ModelRegistry } from '../../src/model/index.js';
import { prepareFirstStart } from '../../src/setup/first-start.js';
import { recordedRegistry, openStore, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../support/each-store.js';
import { issueToken } from '../support/edfi-server.js';
import { interchangeXml, temporaryFolder } from './support/convert-files.js';
import { runLoadCommand } from './support/load-command.js';

const BASE_PATH = '/v7.3/api';
const BOOKS = 'uri://ed-fi.org/FavoriteBookCategoryDescriptor';
const MEDIA = 'uri://ed-fi.org/ArtMediumDescriptor';

const descriptor = (element: string, namespace: string, codeValue: string) =>
  `<${element}><CodeValue>${codeValue}</CodeValue><ShortDescription>${codeValue}</ShortDescription>` +
  `<Namespace>${namespace}</Namespace></${element}>`;

const FILES = {
  'sample.buses.jsonl': `${JSON.stringify({ busId: 'B-7' })}\n`,
  'Descriptors.xml': interchangeXml(
    'InterchangeDescriptors',
    [
      descriptor('FavoriteBookCategoryDescriptor', BOOKS, 'Mystery'),
      descriptor('ArtMediumDescriptor', MEDIA, 'Watercolor'),
    ].join('\n'),
  ),
  'Students.xml': interchangeXml(
    'InterchangeStudent',
    `<Student>
      <StudentUniqueId>SX-1</StudentUniqueId>
      <Name><FirstName>Ada</FirstName><LastSurname>Byron</LastSurname></Name>
      <BirthData><BirthDate>2011-03-04</BirthDate></BirthData>
      <Pet><PetName>Rex</PetName><IsFixed>true</IsFixed></Pet>
      <Pet><PetName>Tom</PetName></Pet>
      <PetPreference><MinimumWeight>5</MinimumWeight><MaximumWeight>20</MaximumWeight></PetPreference>
      <FavoriteBook>
        <FavoriteBookCategory>Mystery</FavoriteBookCategory>
        <BookTitle>The Moonstone</BookTitle>
        <FavoriteBookArtMedium><ArtMedium>${MEDIA}#Watercolor</ArtMedium><ArtPieces>3</ArtPieces></FavoriteBookArtMedium>
      </FavoriteBook>
    </Student>`,
  ),
  'Contacts.xml': interchangeXml(
    'InterchangeContact',
    `<Contact>
      <ContactUniqueId>CX-1</ContactUniqueId>
      <Name><FirstName>Grace</FirstName><LastSurname>Byron</LastSurname></Name>
      <IsSportsFan>false</IsSportsFan>
      <FavoriteBookTitle>Persuasion</FavoriteBookTitle>
      <Address>
        <StreetNumberName>1 Main St</StreetNumberName>
        <City>Austin</City>
        <StateAbbreviation>TX</StateAbbreviation>
        <PostalCode>78701</PostalCode>
        <AddressType>Home</AddressType>
        <OnBusRoute>true</OnBusRoute>
        <SchoolDistrict>North</SchoolDistrict>
      </Address>
    </Contact>`,
  ),
  'EducationOrganization.xml': interchangeXml(
    'InterchangeEducationOrganization',
    `<School>
      <NameOfInstitution>Sample High</NameOfInstitution>
      <EducationOrganizationCategory>School</EducationOrganizationCategory>
      <SchoolId>255901900</SchoolId>
      <GradeLevel>Ninth grade</GradeLevel>
      <IsExemplary>true</IsExemplary>
      <DirectlyOwnedBusReference><BusIdentity><BusId>B-7</BusId></BusIdentity></DirectlyOwnedBusReference>
    </School>`,
  ),
};

/** What the API reads back of the loaded documents, written from the fixture. */
const EXPECTED_STUDENT_EXTENSION = {
  pets: [{ petName: 'Rex', isFixed: true }, { petName: 'Tom' }],
  petPreference: { minimumWeight: 5, maximumWeight: 20 },
  favoriteBooks: [
    {
      favoriteBookCategoryDescriptor: `${BOOKS}#Mystery`,
      bookTitle: 'The Moonstone',
      artMedia: [{ artMediumDescriptor: `${MEDIA}#Watercolor`, artPieces: 3 }],
    },
  ],
};

/** `load` with its files in a temporary folder (the failed records and checkpoint beside them). */
function loadArguments(folder: string): string[] {
  return [
    ...['load', folder, '--progress', 'none', '--parallel', '1'],
    ...['--failed', path.join(folder, 'failed.out'), '--checkpoint', path.join(folder, 'checkpoint.out')],
  ];
}

interface Reader {
  get<T>(pathUnderData: string): Promise<{ status: number; body: T }>;
}

async function readerOf(server: ApiServer, store: Store): Promise<Reader> {
  const token = await issueToken(server, store);
  return {
    async get<T>(pathUnderData: string) {
      const response = await server.inject({
        url: `${BASE_PATH}/data/v3${pathUnderData}`,
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: JSON.parse(response.body || 'null') as T };
    },
  };
}

/** An app that lets every request through (the loads test the loader, not authorization). */
function appOver(store: Store, registry: ModelRegistry): Promise<ApiServer> {
  const logger = { info: () => undefined, warn: () => undefined, error: console.error };
  return createEdFiApp({ store, registry, logger, authorize: allowEveryAction });
}

function expectLoadedDocuments(reader: () => Reader): void {
  it('stores the Sample descriptors', async () => {
    const books = await reader().get<{ codeValue: string; namespace: string }[]>(
      '/sample/favoriteBookCategoryDescriptors',
    );
    expect(books.body.map(({ codeValue, namespace }) => ({ codeValue, namespace }))).toEqual([
      { codeValue: 'Mystery', namespace: BOOKS },
    ]);
  });

  it('stores _ext.sample of a student (pets, a preference, books with their art media)', async () => {
    const students = await reader().get<{ _ext?: { sample?: Record<string, unknown> } }[]>(
      '/ed-fi/students?studentUniqueId=SX-1',
    );
    expect(students.body).toHaveLength(1);
    expect(students.body[0]!._ext?.sample).toMatchObject(EXPECTED_STUDENT_EXTENSION);
  });

  it('stores _ext.sample inside a contact’s address item', async () => {
    const contacts = await reader().get<Record<string, unknown>[]>('/ed-fi/contacts?contactUniqueId=CX-1');
    expect(contacts.body[0]).toMatchObject({
      _ext: { sample: { isSportsFan: false, favoriteBookTitles: [{ favoriteBookTitle: 'Persuasion' }] } },
      addresses: [
        {
          city: 'Austin',
          stateAbbreviationDescriptor: 'uri://ed-fi.org/StateAbbreviationDescriptor#TX',
          _ext: { sample: { onBusRoute: true, schoolDistricts: [{ schoolDistrict: 'North' }] } },
        },
      ],
    });
  });

  it('stores a school owning a Sample bus, loaded from JSON lines before it', async () => {
    const schools = await reader().get<Record<string, unknown>[]>('/ed-fi/schools?schoolId=255901900');
    expect(schools.body[0]).toMatchObject({
      _ext: { sample: { isExemplary: true, directlyOwnedBuses: [{ directlyOwnedBusReference: { busId: 'B-7' } }] } },
    });
  });
}

afterEach(() => {
  process.exitCode = undefined;
});

interface HttpLoad {
  readonly reader: Reader;
  /** What `load` printed. */
  readonly output: string;
  close(): Promise<void>;
}

/** `load --url` of the files into a listening server over a new store serving the given extensions. */
async function loadOverHttp(spec: string, extensions: string[], files: Record<string, string>): Promise<HttpLoad> {
  const registry = getModelRegistry(extensions);
  const store = await openStore(spec, registry, { migrate: true });
  const firstStart = await prepareFirstStart(store, registry, 'descriptors');
  const server = await appOver(store, registry);
  const reader = await readerOf(server, store);
  const listener = await listen(server.handler, { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${listener.port}${BASE_PATH}`;
  const { key, secret } = firstStart!.sandbox;
  const output = await runLoadCommand(
    ...loadArguments(temporaryFolder(files)),
    ...['--url', url, '--key', key, '--secret', secret],
  );
  return {
    reader,
    output,
    close: async () => {
      await listener.close();
      await store.close();
    },
  };
}

describeEachStore('loading Sample interchange XML', (stores) => {
  // First: PostgreSQL's suite schema has not been migrated to serve Sample yet.
  describe('over HTTP into a server not serving Sample', () => {
    let load: HttpLoad;
    beforeAll(async () => {
      const files = { 'Descriptors.xml': FILES['Descriptors.xml'], 'Students.xml': FILES['Students.xml'] };
      load = await loadOverHttp(await stores.newSpec(), [], files);
    }, 120_000);
    afterAll(() => load.close());

    it('fails the Sample descriptors (404) and stores the student without _ext.sample', async () => {
      expect(load.output).toContain('Loaded 1 of 3 documents');
      expect(load.output).toMatch(/2 failed/);
      expect(process.exitCode).toBe(1);
      const students = await load.reader.get<Record<string, unknown>[]>('/ed-fi/students?studentUniqueId=SX-1');
      expect(students.body).toHaveLength(1);
      expect(students.body[0]).not.toHaveProperty('_ext');
    });
  });

  describe('over HTTP (load --url) into a server serving Sample', () => {
    let load: HttpLoad;
    beforeAll(async () => {
      load = await loadOverHttp(await stores.newSpec(), ['sample'], FILES);
    }, 120_000);
    afterAll(() => load.close());

    it('loads every document', () => {
      expect(load.output).toContain('Loaded 6 of 6 documents');
      expect(process.exitCode ?? 0).toBe(0);
    });
    expectLoadedDocuments(() => load.reader);
  });

  describe('straight into a store serving Sample (load --direct)', () => {
    let store: Store;
    let reader: Reader;
    let output: string;

    beforeAll(async () => {
      const spec = await stores.newSpec({ shared: true });
      await (await openStore(spec, getModelRegistry(['sample']), { migrate: true })).close();
      const folder = temporaryFolder(FILES);
      output = await runLoadCommand(...loadArguments(folder), '--direct', '--store', spec);
      store = await openStore(spec);
      reader = await readerOf(await appOver(store, await recordedRegistry(spec)), store);
    }, 120_000);
    afterAll(() => store.close());

    it('loads every document', () => {
      expect(output).toContain('Loaded 6 of 6 documents');
      expect(process.exitCode ?? 0).toBe(0);
    });
    expectLoadedDocuments(() => reader);
  });
});
