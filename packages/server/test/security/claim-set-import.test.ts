// Imported claim sets through the store API on each store: the ODS security-metadata XML and our JSON, validation
// that refuses a whole file with every reason, export that imports again unchanged, and delete guarded by use.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ClaimSetAdministrationError,
  ClaimSetImportError,
  claimSetsJson,
  claimSetsXml,
  createClient,
  deleteImportedClaimSet,
  exportClaimSets,
  importClaimSets,
  listAllClaimSets,
  readClaimSetFile,
} from '../../src/security/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { describeEachStore } from '../support/each-store.js';
import { EDFI_SOURCE_DIR, itWithEdfiSource } from '../support/edfi-source.js';

const PEOPLE = 'http://ed-fi.org/identity/claims/domains/people';

const readerJson = JSON.stringify({
  claimSets: [
    {
      name: 'District Reader',
      resourceClaims: [
        { name: 'http://ed-fi.org/ods/identity/claims/domains/educationOrganizations', actions: [{ name: 'Read' }] },
        {
          name: 'http://ed-fi.org/ods/identity/claims/student',
          actions: [
            { name: 'Read', authorizationStrategyOverrides: ['RelationshipsWithStudentsOnly'] },
            { name: 'ReadChanges' },
          ],
        },
      ],
    },
  ],
});

async function importText(store: Store, text: string) {
  return importClaimSets(store, readClaimSetFile(text));
}

async function reasonsOf(work: Promise<unknown>): Promise<readonly string[]> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ClaimSetImportError);
  return (error as ClaimSetImportError).reasons;
}

describeEachStore('imported claim sets', (stores) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await stores.newSpec());
  });
  afterEach(() => store.close());

  it('stores our JSON with claims named as the claims file names them, and lists it beside the shipped ones', async () => {
    const imported = await importText(store, readerJson);
    const expected = {
      name: 'District Reader',
      resourceClaims: {
        'http://ed-fi.org/identity/claims/domains/educationOrganizations': { Read: [] },
        'http://ed-fi.org/identity/claims/ed-fi/student': { Read: ['RelationshipsWithStudentsOnly'], ReadChanges: [] },
      },
    };
    expect(imported).toEqual([expected]);
    expect(await store.listClaimSets()).toEqual([expected]);
    expect(await store.findClaimSet('District Reader')).toEqual(expected);
    const listed = await listAllClaimSets(store);
    expect(listed).toContainEqual({ name: 'District Reader', imported: true, resourceClaims: 2 });
    expect(listed).toContainEqual(expect.objectContaining({ name: 'SIS Vendor', imported: false }));
  });

  itWithEdfiSource('imports the ODS security-metadata XML of a claim set the ODS once shipped', async () => {
    const file = path.join(EDFI_SOURCE_DIR, 'ods-security/data-ds-5.2/2060-OwnershipBased-claims-for-People.xml');
    await importText(store, readFileSync(file, 'utf8'));
    const owned = ['OwnershipBased'];
    expect(await store.findClaimSet('Ownership Based Test')).toEqual({
      name: 'Ownership Based Test',
      resourceClaims: { [PEOPLE]: { Create: owned, Read: owned, Update: owned, Delete: owned } },
    });
  });

  it('exports in both formats what imports again unchanged, shipped claim sets included', async () => {
    await importText(store, readerJson);
    const stored = await store.listClaimSets();
    for (const format of [claimSetsJson, claimSetsXml]) {
      const text = format(await exportClaimSets(store));
      await store.deleteClaimSet('District Reader');
      await importText(store, text);
      expect(await store.listClaimSets()).toEqual(stored);
    }
    const [sisVendor] = await exportClaimSets(store, ['sis-vendor']);
    const copy = { ...sisVendor!, name: 'SIS Vendor Copy' };
    const [imported] = await importClaimSets(store, { claimSets: [copy], defaultAuthorizations: [] });
    expect(Object.keys(imported!.resourceClaims).length).toBe(
      (await listAllClaimSets(store)).find(({ name }) => name === 'SIS Vendor')!.resourceClaims,
    );
  });

  it('replaces an imported claim set imported again under its name', async () => {
    await importText(store, readerJson);
    await importText(store, readerJson.replace('"ReadChanges"', '"Delete"'));
    const stored = await store.findClaimSet('District Reader');
    expect(stored!.resourceClaims['http://ed-fi.org/identity/claims/ed-fi/student']).toEqual({
      Read: ['RelationshipsWithStudentsOnly'],
      Delete: [],
    });
  });

  it('refuses a file with every reason and stores none of its claim sets', async () => {
    const bad = JSON.stringify({
      claimSets: [
        { name: 'Fine One', resourceClaims: [{ name: PEOPLE, actions: [{ name: 'Read' }] }] },
        { name: 'sis vendor', resourceClaims: [] },
        {
          name: 'Broken',
          resourceClaims: [
            { name: 'http://ed-fi.org/ods/identity/claims/noSuchThing', actions: [{ name: 'Read' }] },
            {
              name: PEOPLE,
              actions: [{ name: 'Write' }, { name: 'Read', authorizationStrategyOverrides: ['Magic'] }],
            },
          ],
        },
      ],
    });
    expect(await reasonsOf(importText(store, bad))).toEqual([
      "Claim set 'sis vendor' is the shipped claim set 'SIS Vendor', which cannot be changed; import the claim set " +
        'under a name of your own.',
      "Claim set 'Broken': 'http://ed-fi.org/ods/identity/claims/noSuchThing' is not a resource claim of the model.",
      `Claim set 'Broken', claim '${PEOPLE}': 'Write' is not an action (Create, Read, Update, Delete, ReadChanges).`,
      expect.stringMatching(
        new RegExp(`^Claim set 'Broken', claim '${PEOPLE}', action 'Read': 'Magic' is not an authorization strategy`),
      ),
    ]);
    expect(await store.listClaimSets()).toEqual([]);
  });

  it('refuses misshapen JSON and XML with the place of each fault', async () => {
    expect(await reasonsOf(importText(store, '{"claimSets": [{"resourceClaims": {}}]}'))).toEqual([
      'claimSets[0].name must be a non-blank string.',
      'claimSets[0].resourceClaims must be an array.',
    ]);
    expect((await reasonsOf(importText(store, '<SecurityMetadata><Claims>')))[0]).toMatch(
      /^The file is not well-formed XML: /,
    );
    const xml = [
      '<SecurityMetadata>',
      '  <Claims>',
      '    <Claim name="http://ed-fi.org/ods/identity/claims/domains/people">',
      '      <DefaultAuthorization><Action name="Read"><AuthorizationStrategies>',
      '        <AuthorizationStrategy name="NoFurtherAuthorizationRequired" />',
      '      </AuthorizationStrategies></Action></DefaultAuthorization>',
      '      <ClaimSets><ClaimSet name="Custom"><Actions><Action name="Read" /></Actions><Extra /></ClaimSet></ClaimSets>',
      '    </Claim>',
      '  </Claims>',
      '</SecurityMetadata>',
    ].join('\n');
    expect(await reasonsOf(importText(store, xml))).toEqual([
      '<Extra> at line 7 is not expected in <ClaimSet> (only <Actions>).',
    ]);
    const withoutExtra = xml.replace('<Extra />', '');
    expect(await reasonsOf(importText(store, withoutExtra))).toEqual([
      "Default authorization of 'http://ed-fi.org/ods/identity/claims/domains/people' for 'Read' " +
        "(NoFurtherAuthorizationRequired) differs from the model's (RelationshipsWithEdOrgsAndPeople); an import " +
        'defines claim sets only (use AuthorizationStrategyOverrides).',
    ]);
    expect(await store.listClaimSets()).toEqual([]);
  });

  it('gives a client an imported claim set by any spelling, and deletes it only once no application holds it', async () => {
    await importText(store, readerJson);
    const created = await createClient(store, { key: 'reader', claimSet: 'districtreader' });
    expect(created.claimSet).toBe('District Reader');
    const refusal = (name: string) =>
      deleteImportedClaimSet(store, name).then(
        () => undefined,
        (error: ClaimSetAdministrationError) => [error.kind, error.message],
      );
    expect(await refusal('District Reader')).toEqual([
      'in-use',
      "The claim set 'District Reader' is assigned to applications; give their clients another claim set first " +
        '(clients update --claim-set).',
    ]);
    expect(await refusal('SIS Vendor')).toEqual([
      'shipped',
      "'SIS Vendor' is a shipped claim set and cannot be deleted.",
    ]);
    expect(await refusal('Nobody')).toEqual(['unknown', "No imported claim set is named 'Nobody'."]);
    await store.updateClientApplication('reader', { claimSetName: 'SIS Vendor' });
    expect(await deleteImportedClaimSet(store, 'district-reader')).toBe('District Reader');
    expect(await store.listClaimSets()).toEqual([]);
    await expect(createClient(store, { key: 'late', claimSet: 'District Reader' })).rejects.toThrow(
      /^Unknown claim set 'District Reader'\. Valid claim sets: AB Connect, /,
    );
  });
});

describe('claim-set import formats', () => {
  it('merges the grants of one claim set spread over the claims of an XML file, nested claims included', () => {
    const xml = `<SecurityMetadata><Claims>
      <Claim name="http://ed-fi.org/ods/identity/claims/domains/people">
        <ClaimSets><ClaimSet name="Mine"><Actions><Action name="Read" /></Actions></ClaimSet></ClaimSets>
        <Claims><Claim name="http://ed-fi.org/ods/identity/claims/staff">
          <ClaimSets><ClaimSet name="Mine"><Actions><Action name="Create"><AuthorizationStrategyOverrides>
            <AuthorizationStrategy name="NoFurtherAuthorizationRequired" />
          </AuthorizationStrategyOverrides></Action></Actions></ClaimSet></ClaimSets>
        </Claim></Claims>
      </Claim></Claims></SecurityMetadata>`;
    expect(readClaimSetFile(xml).claimSets).toEqual([
      {
        name: 'Mine',
        resourceClaims: [
          {
            name: 'http://ed-fi.org/ods/identity/claims/domains/people',
            actions: [{ name: 'Read', authorizationStrategyOverrides: [] }],
          },
          {
            name: 'http://ed-fi.org/ods/identity/claims/staff',
            actions: [{ name: 'Create', authorizationStrategyOverrides: ['NoFurtherAuthorizationRequired'] }],
          },
        ],
      },
    ]);
  });
});
