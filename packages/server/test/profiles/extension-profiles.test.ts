// Profiles are checked against the model the store serves, with its extensions: on a store serving Sample, a profile
// naming Sample's `Bus` (with its logicalSchema) or Sample's `_ext` on schools is valid, through `profiles import|list`
// and the admin API, and requests through it are served; on a store without Sample the same profile is
// "configured but invalid".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import { createEdFiApp } from '../../src/http/app.js';
import { openStore, recordedRegistry, type Store } from '../../src/store/index.js';
import { runCli } from '../cli/support.js';
import { describeEachStore } from '../support/each-store.js';
import { BASE_PATH, DATA_PATH, issueToken } from '../support/edfi-server.js';
import { ADMIN, ADMIN_AUTH, importThroughAdmin, readable } from './profile-fixtures.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-extension-profiles-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const PROFILES = `<Profiles>
  <Profile name="Bus-Routes">
    <Resource name="Bus" logicalSchema="Sample"><ReadContentType memberSelection="IncludeAll" /></Resource>
  </Profile>
  <Profile name="Exemplary-Schools">
    <Resource name="School">
      <ReadContentType memberSelection="IncludeOnly">
        <Property name="NameOfInstitution" />
        <Extension name="Sample" memberSelection="IncludeOnly"><Property name="IsExemplary" /></Extension>
      </ReadContentType>
    </Resource>
  </Profile>
</Profiles>`;
const PROFILES_FILE = path.join(folder, 'profiles.xml');
writeFileSync(PROFILES_FILE, PROFILES);

const WITHOUT_SAMPLE_PROBLEMS = [
  ["Resource 'Bus' is not a resource of this API."],
  ["Resource 'School' (read): extension 'Sample' does not extend resource 'School'."],
];

interface Listed {
  readonly name: string;
  readonly problems: string[];
}

/** How long a test may take: it runs the CLI in child processes and migrates stores. */
const SLOW = 240_000;

describeEachStore('profiles checked against the extensions a store serves', (stores) => {
  let withSample: string;
  let withoutSample: string;
  beforeAll(async () => {
    const specs = await stores.newSpecs(2, { shared: true });
    [withSample, withoutSample] = [specs[0]!, specs[1]!];
    const added = await runCli(['extensions', 'add', 'sample', '--store', withSample]);
    expect(added.stderr).toBe('');
  }, SLOW);

  const problemsListed = async (spec: string): Promise<string[][]> => {
    const listed = await runCli(['profiles', 'list', '--json', '--store', spec]);
    expect(listed.stderr).toBe('');
    return (JSON.parse(listed.stdout) as Listed[]).map((profile) => profile.problems);
  };

  it(
    'profiles import and list: valid on the store serving Sample, misconfigured on the other',
    async () => {
      const valid = await runCli(['profiles', 'import', PROFILES_FILE, '--store', withSample]);
      expect(valid.stderr).toBe('');
      expect(valid.stdout).not.toContain('misconfigured');
      expect(await problemsListed(withSample)).toEqual([[], []]);

      const invalid = await runCli(['profiles', 'import', PROFILES_FILE, '--store', withoutSample]);
      expect(invalid.stdout).toContain("misconfigured (requests answer 406): Resource 'Bus' is not a resource");
      expect(await problemsListed(withoutSample)).toEqual(WITHOUT_SAMPLE_PROBLEMS);
    },
    SLOW,
  );

  it(
    'the admin API checks with the served model, and requests through the profile are served or refused by it',
    async () => {
      const serving = async (spec: string): Promise<{ app: ApiServer; store: Store; token: string }> => {
        const store = await openStore(spec);
        const app = await createEdFiApp({
          store,
          registry: await recordedRegistry(spec),
          logger: { info() {}, warn() {}, error: console.error },
          admin: ADMIN,
        });
        return { app, store, token: await issueToken(app, store, { claimSet: 'Ed-Fi Sandbox' }) };
      };
      const profiledGet = (app: ApiServer, token: string, where: string, accept: string) =>
        app.inject({
          method: 'GET',
          url: `${DATA_PATH}${where}`,
          headers: { authorization: `Bearer ${token}`, accept },
        });
      const adminProblems = async (app: ApiServer) => {
        const imported = await importThroughAdmin(app, PROFILES);
        expect(imported.status, imported.body).toBe(201);
        const listed = await app.inject({ method: 'GET', url: `${BASE_PATH}/admin/profiles`, headers: ADMIN_AUTH });
        return listed.json<Listed[]>().map((profile) => profile.problems);
      };

      const sample = await serving(withSample);
      try {
        expect(await adminProblems(sample.app)).toEqual([[], []]);
        const buses = await profiledGet(sample.app, sample.token, '/sample/buses', readable('bus', 'bus-routes'));
        expect(buses.status, buses.body).toBe(200);
        const schools = await profiledGet(
          sample.app,
          sample.token,
          '/ed-fi/schools',
          readable('school', 'exemplary-schools'),
        );
        expect(schools.status, schools.body).toBe(200);
      } finally {
        await sample.store.close();
      }

      const plain = await serving(withoutSample);
      try {
        expect(await adminProblems(plain.app)).toEqual(WITHOUT_SAMPLE_PROBLEMS);
        const schools = await profiledGet(
          plain.app,
          plain.token,
          '/ed-fi/schools',
          readable('school', 'exemplary-schools'),
        );
        expect(schools.status).toBe(406);
      } finally {
        await plain.store.close();
      }
    },
    SLOW,
  );
});
