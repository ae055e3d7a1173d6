// `edfi-api claim-sets import | list | export | delete` and `clients update` on a store file, as an operator runs them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClaimSetSummary, ClientSummary } from '../../src/security/index.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from './support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-claim-sets-'));
const spec = `sqlite:${path.join(folder, 'edfi-api.sqlite')}`;
const file = (name: string, text: string): string => {
  const target = path.join(folder, name);
  writeFileSync(target, text);
  return target;
};

const SECURITY_XML = `<SecurityMetadata>
  <Claims>
    <Claim name="http://ed-fi.org/ods/identity/claims/domains/educationOrganizations">
      <ClaimSets>
        <ClaimSet name="Campus Reader">
          <Actions>
            <Action name="Read" />
            <Action name="ReadChanges">
              <AuthorizationStrategyOverrides>
                <AuthorizationStrategy name="NoFurtherAuthorizationRequired" />
              </AuthorizationStrategyOverrides>
            </Action>
          </Actions>
        </ClaimSet>
      </ClaimSets>
    </Claim>
  </Claims>
</SecurityMetadata>
`;

async function ok(args: readonly string[]): Promise<string> {
  const result = await runCli([...args, '--store', spec]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('claim-sets and clients update commands', () => {
  it('imports ODS security XML, lists, exports the same XML, gives it to a client and deletes it once unused', async () => {
    expect(await ok(['claim-sets', 'import', file('campus.xml', SECURITY_XML)])).toContain(
      "Imported claim set 'Campus Reader' (1 resource claim).",
    );
    const listed = JSON.parse(await ok(['claim-sets', 'list', '--json'])) as ClaimSetSummary[];
    expect(listed).toContainEqual({ name: 'Campus Reader', imported: true, resourceClaims: 1 });
    expect(listed).toContainEqual(expect.objectContaining({ name: 'SIS Vendor', imported: false }));

    const exported = path.join(folder, 'exported.xml');
    await ok(['claim-sets', 'export', 'campus reader', '--format', 'xml', '--output', exported]);
    expect(readFileSync(exported, 'utf8')).toBe(SECURITY_XML);

    await ok(['clients', 'create', '--key', 'campus', '--claim-set', 'CampusReader', '--edorg', '255901']);
    const inUse = await runCli(['claim-sets', 'delete', 'Campus Reader', '--store', spec]);
    expect([inUse.code, inUse.stderr]).toEqual([
      1,
      "edfi-api: The claim set 'Campus Reader' is assigned to applications; give their clients another claim set " +
        'first (clients update --claim-set).\n',
    ]);

    const updated = await ok([
      'clients',
      'update',
      '--key',
      'campus',
      '--claim-set',
      'SIS Vendor',
      '--edorg',
      '255901001',
    ]);
    expect(updated).toContain("Updated application 'campus' of client 'campus':");
    const [client] = JSON.parse(await ok(['clients', 'list', '--json'])) as ClientSummary[];
    expect(client).toMatchObject({ key: 'campus', claimSet: 'SIS Vendor', educationOrganizationIds: [255901001] });

    expect(await ok(['claim-sets', 'delete', 'Campus Reader'])).toContain("Deleted claim set 'Campus Reader'.");
    expect(JSON.parse(await ok(['claim-sets', 'export']))).toEqual({ claimSets: [] });
  }, 120_000);

  it('refuses an invalid file with every reason, and imports nothing', async () => {
    const invalid = SECURITY_XML.replace('name="Read"', 'name="Peek"').replace(
      'NoFurtherAuthorizationRequired',
      'TrustMe',
    );
    const result = await runCli(['claim-sets', 'import', file('invalid.xml', invalid), '--store', spec]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The claim sets were not imported:');
    expect(result.stderr).toContain("'Peek' is not an action (Create, Read, Update, Delete, ReadChanges).");
    expect(result.stderr).toContain("action 'ReadChanges': 'TrustMe' is not an authorization strategy");
    const listed = JSON.parse(await ok(['claim-sets', 'list', '--json'])) as ClaimSetSummary[];
    expect(listed.filter(({ imported }) => imported)).toEqual([]);
  }, 60_000);
});

describe('clients create with ownership tokens', () => {
  it('gives the client the named token to stamp with and further ones to access', async () => {
    const created = await ok([
      'clients',
      'create',
      '--key',
      'owner-a',
      '--claim-set',
      'SIS Vendor',
      '--ownership-token',
      'District SIS',
      '--access-ownership-token',
      'Auditors',
    ]);
    expect(created).toContain('Ownership token:          District SIS');
    expect(created).toContain('Also accesses the tokens: Auditors');
    await ok([
      'clients',
      'create',
      '--key',
      'owner-b',
      '--claim-set',
      'SIS Vendor',
      '--ownership-token',
      'District SIS',
    ]);
    const store = await openStore(spec);
    try {
      const [a, b] = await Promise.all(['owner-a', 'owner-b'].map((key) => store.findClientOwnership(key)));
      expect(b).toEqual({ ownershipTokenId: a!.ownershipTokenId, accessibleOwnershipTokenIds: [a!.ownershipTokenId] });
      expect(a!.accessibleOwnershipTokenIds).toHaveLength(2);
    } finally {
      await store.close();
    }
  }, 60_000);
});
