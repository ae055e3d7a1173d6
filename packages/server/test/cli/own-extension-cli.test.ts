// `edfi-api extensions add <folder>` with an extension of one's own (the Garden folder the test writes): the folder is
// checked and imported, the store records the extension (on a store of the release before, whose admin schema has no
// table for it yet, too), and `serve` then serves it from the store alone (the folder deleted): its resources and
// descriptors, `_ext.garden` on schools at the root and inside address items, references, validation, metadata, and
// the default grant of its resources (NoFurtherAuthorizationRequired: a client of another school reads its plots).
// Adding the folders again (several at once) replaces the recorded parts, which is how a store whose parts another
// release's model format wrote is opened again. A folder that is no usable extension is refused, naming what is
// wrong, and leaves the store as it was.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { GARDEN_API_SCHEMA, writeGardenExtension } from '../support/garden-extension.js';
import { describePostgres, postgresSpec, schemasDroppedAfterAll, withStoreConnection } from '../support/postgres.js';
import { runCli, startServe, type RunningServer } from './support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-own-extension-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const SLOW = { timeout: 120_000 };
const KEY = 'garden-client';
const SECRET = 'the-secret-of-the-garden-client-32+';
/** A client of another school, which the extension's default grant (NoFurtherAuthorizationRequired) lets through. */
const OTHER_SCHOOL_KEY = 'other-school-client';
const SOIL = 'uri://garden.example.org/SoilTypeDescriptor';

const school = {
  schoolId: 255901077,
  nameOfInstitution: 'Garden High',
  educationOrganizationCategories: [
    { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
  ],
  gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
  addresses: [
    {
      addressTypeDescriptor: 'uri://ed-fi.org/AddressTypeDescriptor#Physical',
      streetNumberName: '1 Garden Way',
      city: 'Austin',
      stateAbbreviationDescriptor: 'uri://ed-fi.org/StateAbbreviationDescriptor#TX',
      postalCode: '78701',
      _ext: { garden: { gateCode: 'G-7' } },
    },
  ],
  _ext: { garden: { hasGreenhouse: true, beds: [{ bedNumber: 1 }, { bedNumber: 2 }] } },
};
const plot = {
  plotCode: 'P-1',
  schoolReference: { schoolId: 255901077 },
  areaSquareMeters: 12.5,
  soilTypeDescriptor: `${SOIL}#Loam`,
  crops: [{ cropName: 'Beans' }, { cropName: 'Squash' }],
};

interface Api {
  send(method: string, pathUnderData: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  get(pathUnderBase: string): Promise<{ status: number; body: unknown }>;
}

async function apiOf(server: RunningServer, key = KEY): Promise<Api> {
  const base = `http://127.0.0.1:${server.port}/v7.3/api`;
  const tokenResponse = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: key, client_secret: SECRET }),
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const request = async (url: string, method = 'GET', body?: unknown) => {
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  return {
    send: (method, pathUnderData, body) => request(`${base}/data/v3${pathUnderData}`, method, body),
    get: (pathUnderBase) => request(`${base}${pathUnderBase}`),
  };
}

/** Takes the store's admin schema back to the release before the extension_model table. */
async function asPreviousRelease(spec: string): Promise<void> {
  if (spec.startsWith('sqlite:')) {
    const db = new Database(spec.slice('sqlite:'.length));
    db.exec("DROP TABLE extension_model; UPDATE meta SET value = 5 WHERE key = 'admin_schema_version';");
    db.close();
    return;
  }
  await withStoreConnection(spec, (client) =>
    client.query("DROP TABLE extension_model; UPDATE meta SET value = 4 WHERE key = 'admin_schema_version';"),
  );
}

/** Rewrites the store's records of its added extensions as a release reading another model format wrote them. */
async function recordedInFormat(spec: string, formatVersion: number): Promise<void> {
  if (spec.startsWith('sqlite:')) {
    const db = new Database(spec.slice('sqlite:'.length));
    db.prepare("UPDATE extension_model SET definition = json_set(definition, '$.formatVersion', ?)").run(formatVersion);
    db.close();
    return;
  }
  await withStoreConnection(spec, (client) =>
    client.query(
      'UPDATE extension_model ' +
        "SET definition = jsonb_set(definition::jsonb, '{formatVersion}', to_jsonb($1::int))::text",
      [formatVersion],
    ),
  );
}

function ownExtensionSuite(newSpec: () => string): void {
  it(
    'replaces the recorded parts when the folders are added again, the recovery a release of another model format asks for',
    SLOW,
    async () => {
      const spec = newSpec();
      const copy = mkdtempSync(path.join(folder, 'again-'));
      const garden = writeGardenExtension(path.join(copy, 'garden'));
      const orchard = writeGardenExtension(path.join(copy, 'orchard'), GARDEN_API_SCHEMA, 'Orchard');
      const added = await runCli(['extensions', 'add', garden, orchard, '--store', spec]);
      expect(added.stderr).toBe('');
      expect(added.stdout).toMatch(/: serves garden, orchard \(\w+ schema\)\.\n$/);
      await recordedInFormat(spec, 0);
      const refused = await runCli(['migrate', '--store', spec]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(
        /The extension garden was added with another model format \(0, this release reads \d+\); add it again from its folder with `edfi-api extensions add <folder> --store …`/,
      );

      // One alone cannot be taken in while the other's record is of the other format.
      const alone = await runCli(['extensions', 'add', garden, '--store', spec]);
      expect(alone.stderr).toMatch(/The extension orchard was added with another model format/);

      const again = await runCli(['extensions', 'add', garden, orchard, '--store', spec]);
      expect(again.stderr).toBe('');
      expect(again.stdout).toMatch(/: serves garden, orchard \(upgraded schema\)\.\n$/);
      expect((await runCli(['migrate', '--store', spec])).stdout).toMatch(/already current/);
      const unchanged = await runCli(['extensions', 'add', orchard, '--store', spec]);
      expect(unchanged.stdout).toMatch(/: serves garden, orchard \(current schema\)\.\n$/);
    },
  );

  it(
    'imports the folder into a store of the release before, records it, and serves it from the store alone',
    SLOW,
    async () => {
      const spec = newSpec();
      expect((await runCli(['migrate', '--store', spec])).code).toBe(0);
      await asPreviousRelease(spec);
      const extension = writeGardenExtension(path.join(mkdtempSync(path.join(folder, 'copy-')), 'garden'));
      const added = await runCli(['extensions', 'add', extension, '--store', spec]);
      expect(added.stderr).toBe('');
      expect(added.stdout).toMatch(/: serves garden \(upgraded schema\)\.\n$/);
      rmSync(extension, { recursive: true });
      expect((await runCli(['migrate', '--store', spec])).stdout).toMatch(/already current/);
      expect((await runCli(['extensions', 'list', '--store', spec])).stdout).toBe(
        'garden\tserved\nhomograph\toff\nsample\toff\n',
      );
      for (const client of [
        ['--key', KEY],
        ['--key', OTHER_SCHOOL_KEY, '--edorg', '255901999'],
      ]) {
        const created = await runCli([
          'clients',
          'create',
          '--store',
          spec,
          '--secret',
          SECRET,
          ...client,
          '--claim-set',
          'Ed-Fi Sandbox',
        ]);
        expect(created.code).toBe(0);
      }

      const server = await startServe(['--store', spec, '--port', '0', '--host', '127.0.0.1']);
      try {
        const api = await apiOf(server);
        const soil = { codeValue: 'Loam', namespace: SOIL, shortDescription: 'Loam' };
        expect((await api.send('POST', '/garden/soilTypeDescriptors', soil)).status).toBe(201);
        expect((await api.send('POST', '/ed-fi/schools', school)).status).toBe(201);
        expect((await api.send('POST', '/garden/plots', plot)).status).toBe(201);

        const plots = await api.send('GET', '/garden/plots?schoolId=255901077');
        // The read adds the id, _etag, _lastModifiedDate and the reference's link.
        expect(plots.body).toMatchObject([plot]);
        const otherSchool = await apiOf(server, OTHER_SCHOOL_KEY);
        expect((await otherSchool.send('GET', '/garden/plots?schoolId=255901077')).body).toMatchObject([plot]);
        const schools = await api.send('GET', '/ed-fi/schools?schoolId=255901077');
        expect(schools.body).toEqual([
          expect.objectContaining({
            _ext: school._ext,
            addresses: [expect.objectContaining({ city: 'Austin', _ext: { garden: { gateCode: 'G-7' } } })],
          }),
        ]);

        const unknownSchool = await api.send('POST', '/garden/plots', { ...plot, schoolReference: { schoolId: 9 } });
        expect(unknownSchool.status).toBe(409);
        const bedWithoutNumber = await api.send('POST', '/ed-fi/schools', {
          ...school,
          _ext: { garden: { beds: [{}] } },
        });
        expect(bedWithoutNumber.status).toBe(400);
        expect(JSON.stringify(bedWithoutNumber.body)).toContain('$._ext.garden.beds[0].bedNumber');
        const schoolId = ((await api.send('GET', '/ed-fi/schools?schoolId=255901077')).body as { id: string }[])[0]!.id;
        expect((await api.send('DELETE', `/ed-fi/schools/${schoolId}`)).status).toBe(409);

        expect((await api.get('/metadata/data/v3/garden/swagger.json')).status).toBe(200);
        const discovery = (await api.get('/')).body as { dataModels: { name: string; version: string }[] };
        expect(discovery.dataModels).toContainEqual(expect.objectContaining({ name: 'Garden', version: '1.0.0' }));
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
  );
}

describe('an extension of your own (SQLite)', () => {
  let stores = 0;
  ownExtensionSuite(() => `sqlite:${path.join(folder, `store-${++stores}`, 'edfi-api.sqlite')}`);

  it(
    'refuses folders that are no usable extension, naming what is wrong, and leaves the store as it was',
    SLOW,
    async () => {
      const spec = `sqlite:${path.join(folder, 'refusals', 'edfi-api.sqlite')}`;
      const attempt = async (name: string, write: (at: string) => void) => {
        const at = path.join(folder, 'refused', name);
        write(at);
        return runCli(['extensions', 'add', at, '--store', spec]);
      };
      const missingSchema = await attempt(
        'empty',
        (at) => writeGardenExtension(at) && rmSync(path.join(at, 'garden-1.0-api-schema.json')),
      );
      expect(missingSchema.code).not.toBe(0);
      expect(missingSchema.stderr).toMatch(/refused[/\\]empty: no MetaEd ApiSchema \(\*-api-schema\.json\)/);

      const notJson = await attempt('not-json', (at) => {
        writeGardenExtension(at);
        writeFileSync(path.join(at, 'garden-1.0-api-schema.json'), '{ "projectSchema": ');
      });
      expect(notJson.stderr).toMatch(/garden-1\.0-api-schema\.json: not JSON/);

      const { schools: _schools, ...withoutSchools } = GARDEN_API_SCHEMA.projectSchema.resourceSchemas;
      const unknownTarget = await attempt('unknown-target', (at) =>
        writeGardenExtension(at, {
          projectSchema: {
            ...GARDEN_API_SCHEMA.projectSchema,
            resourceSchemas: {
              ...withoutSchools,
              playgrounds: { ...GARDEN_API_SCHEMA.projectSchema.resourceSchemas.schools, resourceName: 'Playground' },
            },
          },
        }),
      );
      expect(unknownTarget.stderr).toMatch(
        /unknown-target: it extends playgrounds, which is no Data Standard resource/,
      );

      expect((await runCli(['extensions', 'add', 'sample', '--store', spec])).code).toBe(0);
      const taken = await attempt('sample-named', (at) =>
        writeGardenExtension(at, {
          projectSchema: { ...GARDEN_API_SCHEMA.projectSchema, projectName: 'Sample', projectEndpointName: 'sample' },
        }),
      );
      expect(taken.stderr).toMatch(/sample-named: the model already has a project with the namespace sample/);

      expect((await runCli(['extensions', 'list', '--store', spec])).stdout).toBe('homograph\toff\nsample\tserved\n');
    },
  );
});

describePostgres('an extension of your own (PostgreSQL)', () => {
  const newSchema = schemasDroppedAfterAll();
  ownExtensionSuite(() => postgresSpec(newSchema('edfi_own_extension')));
});
