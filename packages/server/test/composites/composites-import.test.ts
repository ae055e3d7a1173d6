// The composite definitions: the committed model/composites.json is what the ODS definition file gives, an
// implementer's own category file is imported beside it (and served), and a definition the XSD or the model does not
// allow is refused with the reason and where.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCompositeCategories, readCompositesFile } from '../../src/composites/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { readCompositesXml } from '../../tools/composites/composites-xml.js';
import { district } from './support/small-district.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { itWithEdfiSource } from '../support/edfi-source.js';

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-composites-'));

function importComposites(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'tools/import-composites.ts', ...args], {
    cwd: packageRoot,
    encoding: 'utf8',
  });
}

function definitionFile(name: string, body: string, organization = 'acme'): string {
  const file = path.join(folder, name);
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="utf-8"?>\n<CompositeMetadata organizationCode="${organization}">\n${body}\n</CompositeMetadata>\n`,
  );
  return file;
}

const ROSTER = `  <Category displayName="Acme Roster" name="roster">
    <Routes>
      <Route relativeRouteTemplate="/schools/{School.Id}/{compositeName}" />
    </Routes>
    <Composites>
      <Composite name="Enrollee">
        <Specification>
          <Parameter name="School.Id" filterPath="StudentSchoolAssociations->School.Id" />
          <Parameter name="StudentUniqueId" filterPath="StudentUniqueId" />
        </Specification>
        <BaseResource name="Student">
          <Property name="Id" />
          <Property name="StudentUniqueId" displayName="code" />
          <Property name="LastSurname" />
          <LinkedCollection name="StudentSchoolAssociations" displayName="schools">
            <ReferencedResource name="SchoolReference" displayName="school">
              <Property name="SchoolId" />
              <Property name="NameOfInstitution" />
            </ReferencedResource>
            <Property name="EntryDate" />
          </LinkedCollection>
        </BaseResource>
      </Composite>
    </Composites>
  </Category>`;

itWithEdfiSource(
  'import-composites --check finds model/composites.json equal to a fresh import of DS4AndDS5_Composites.xml',
  () => {
    const result = importComposites('--check');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('1 categories, 5 composites');
    expect(result.status).toBe(0);
  },
  60_000,
);

itWithEdfiSource(
  "an implementer's category file is imported beside the Ed-Fi one",
  () => {
    const output = path.join(folder, 'composites.json');
    const result = importComposites('--add', definitionFile('roster.xml', ROSTER), '--output', output);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const categories = readCompositesFile(output).categories;
    expect(categories.map((category) => `${category.organization}/${category.name}`)).toEqual([
      'ed-fi/enrollment',
      'acme/roster',
    ]);
    expect(categories[1]!.composites[0]).toMatchObject({ name: 'Enrollee', baseResource: 'Student' });
    const again = importComposites('--add', path.join(folder, 'roster.xml'), '--add', path.join(folder, 'roster.xml'));
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('The category acme/roster is defined twice');
  },
  60_000,
);

describe('refused definitions', () => {
  const refusal = (body: string) => {
    const categories = readCompositesXml(definitionFile('bad.xml', body));
    return () => compileCompositeCategories(categories, getModelRegistry());
  };

  it('names the file and line of what the schema does not allow', () => {
    const file = definitionFile('unknown.xml', ROSTER.replace('<Property name="LastSurname" />', '<Field name="X" />'));
    expect(() => readCompositesXml(file)).toThrow(`${file}:16: unknown member <Field>`);
    const flag = definitionFile('flag.xml', ROSTER.replace('displayName="school"', 'flatten="yes"'));
    expect(() => readCompositesXml(flag)).toThrow("'flatten' must be true or false, not 'yes'");
  });

  it('names the composite and the member the model does not have', () => {
    expect(refusal(ROSTER.replace('name="LastSurname"', 'name="ShoeSize"'))).toThrow(
      "Composite acme/roster/Enrollee: Student has no property 'ShoeSize'",
    );
    expect(refusal(ROSTER.replace('name="StudentSchoolAssociations"', 'name="StudentPets"'))).toThrow(
      "no resource 'StudentPets' to link",
    );
    expect(refusal(ROSTER.replace('StudentSchoolAssociations->School.Id', 'Lockers->School.Id'))).toThrow(
      "Composite Enrollee, parameter School.Id (Lockers->School.Id): 'Lockers' leads nowhere from Student",
    );
    expect(refusal(ROSTER.replace('/schools/{School.Id}/{compositeName}', '/schools/{compositeName}'))).toThrow(
      "the route '/schools/{compositeName}' is not of the form /{segment}/{Resource.Id}/{compositeName}",
    );
  });
});

describe("an implementer's category, served", () => {
  let edfi: EdFiTestServer;
  let ids: Awaited<ReturnType<typeof district>>;
  beforeAll(async () => {
    const categories = compileCompositeCategories(
      readCompositesXml(definitionFile('served.xml', ROSTER)),
      getModelRegistry(),
    );
    edfi = await startEdFiServer({ compositeCategories: categories });
    ids = await district(edfi);
  });
  afterAll(() => edfi?.close());

  const get = (url: string) =>
    edfi.server.inject({
      url: `${BASE_PATH}/composites/v1/acme/roster${url}`,
      headers: { authorization: `Bearer ${edfi.token}` },
    });

  it('answers its composite, nested route and parameters with the bodies its definition gives', async () => {
    const all = await get('/enrollees');
    expect(all.status, all.body).toBe(200);
    expect(all.json()).toEqual([
      {
        id: ids.students.S1,
        code: 'S1',
        lastSurname: 'S1',
        schools: [{ school: { schoolId: 101, nameOfInstitution: 'School 101' }, entryDate: '2021-08-23' }],
      },
      {
        id: ids.students.S2,
        code: 'S2',
        lastSurname: 'S2',
        schools: [{ school: { schoolId: 102, nameOfInstitution: 'School 102' }, entryDate: '2021-08-23' }],
      },
    ]);
    const nested = await get(`/schools/${ids.schools[102]}/enrollees`);
    expect(nested.json<{ code: string }[]>().map((item) => item.code)).toEqual(['S2']);
    expect((await get('/enrollees?studentUniqueId=S1')).json<{ code: string }[]>().map((item) => item.code)).toEqual([
      'S1',
    ]);
    expect((await edfi.server.inject({ url: `${BASE_PATH}/metadata` })).json<{ name: string }[]>()[0]).toMatchObject({
      name: 'Roster',
      endpointUri: expect.stringContaining('/metadata/composites/v1/acme/roster/swagger.json'),
    });
  });
});
