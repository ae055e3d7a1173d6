// `edfi-api profiles import | list | export | delete` on each store: definitions refused with the reason and nothing
// saved, misconfigured profiles reported, exports that import again.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parseProfilesXml } from '../../src/profiles/index.js';
import { runCli } from '../cli/support.js';
import { describeEachStore } from '../support/each-store.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-profiles-'));

function file(name: string, xml: string): string {
  const where = path.join(folder, name);
  writeFileSync(where, xml);
  return where;
}

const VALID = file(
  'valid.xml',
  `<Profiles>
  <Profile name="Student-Names">
    <Resource name="Student"><ReadContentType memberSelection="IncludeOnly"><Property name="FirstName" /></ReadContentType></Resource>
  </Profile>
  <Profile name="Broken-Members">
    <Resource name="School"><ReadContentType memberSelection="ExcludeOnly"><Property name="NoSuchMember" /></ReadContentType></Resource>
    <Resource name="NoSuchResource"><ReadContentType memberSelection="IncludeAll" /></Resource>
  </Profile>
</Profiles>`,
);
const INVALID = file(
  'invalid.xml',
  '<Profiles><Profile name="Other"><Resource name="Student"><ReadContentType memberSelection="Some" /></Resource></Profile></Profiles>',
);

interface Listed {
  readonly name: string;
  readonly resources: string[];
  readonly problems: string[];
}

describeEachStore('profiles command', (stores) => {
  let spec: string;
  beforeAll(async () => {
    spec = await stores.newSpec({ shared: true });
  });

  const listed = async (): Promise<Listed[]> => {
    const result = await runCli(['profiles', 'list', '--json', '--store', spec]);
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as Listed[];
  };

  it('imports, lists, exports and deletes', async () => {
    const imported = await runCli(['profiles', 'import', VALID, '--store', spec]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported 2 profile(s)');
    expect(imported.stdout).toContain("misconfigured (requests answer 406): Resource 'NoSuchResource'");

    const profiles = await listed();
    expect(profiles.map((profile) => profile.name)).toEqual(['Broken-Members', 'Student-Names']);
    expect(profiles[1]!.problems).toEqual([]);
    expect(profiles[0]!.problems).toHaveLength(2);
    expect(profiles[0]!.problems.join('\n')).toMatch(/property 'NoSuchMember' is not a member/);

    const output = path.join(folder, `export-${stores.name}.xml`);
    const exported = await runCli(['profiles', 'export', 'student-names', '--output', output, '--store', spec]);
    expect(exported.code).toBe(0);
    expect(parseProfilesXml(readFileSync(output, 'utf8'))).toEqual([parseProfilesXml(readFileSync(VALID, 'utf8'))[0]]);

    const refused = await runCli(['profiles', 'import', INVALID, '--store', spec]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Line 1: 'Some' is not a valid memberSelection/);
    expect((await listed()).map((profile) => profile.name)).toEqual(['Broken-Members', 'Student-Names']);

    const deleted = await runCli(['profiles', 'delete', 'BROKEN-members', '--store', spec]);
    expect(deleted.code).toBe(0);
    expect((await listed()).map((profile) => profile.name)).toEqual(['Student-Names']);
    const missing = await runCli(['profiles', 'delete', 'Broken-Members', '--store', spec]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No profile is named 'Broken-Members'.");

    expect((await runCli(['profiles', 'delete', 'Student-Names', '--store', spec])).code).toBe(0);
    const empty = await runCli(['profiles', 'export', '--store', spec]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('The store has no profiles to export.');
  }, 240_000);
});
