// What makes a stored profile misconfigured for this model (contract §9.1: requests through it answer 406): each
// unknown resource, member, extension or filter property is named, and valid definitions have no problems.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { importProfiles, listProfiles } from '../../src/profiles/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { profileXml } from './profile-fixtures.js';

let store: Store;
const registry = getModelRegistry();
beforeAll(async () => {
  store = await openStore('sqlite::memory:');
});
afterAll(() => store.close());

async function problemsOf(profile: string): Promise<readonly string[]> {
  const [summary] = await importProfiles(store, registry, `<Profiles>${profile}</Profiles>`);
  return summary!.problems;
}

const read = (inner: string, selection = 'IncludeOnly') => profileXml('P', 'School', [selection, inner]);

describe('misconfigured profiles', () => {
  it.each([
    [
      'an unknown resource',
      profileXml('P', 'Schools', ['IncludeAll', '']),
      "Resource 'Schools' is not a resource of this API.",
    ],
    [
      'an unknown logicalSchema',
      '<Profile name="P"><Resource name="School" logicalSchema="Sample"><ReadContentType memberSelection="IncludeAll"/></Resource></Profile>',
      "Resource 'School' is not a resource of this API.",
    ],
    [
      'an unknown property',
      read('<Property name="Mascot"/>'),
      "Resource 'School' (read): property 'Mascot' is not a member of resource 'School'.",
    ],
    [
      'a collection named as a property',
      read('<Property name="EducationOrganizationAddresses"/>'),
      "Resource 'School' (read): 'EducationOrganizationAddresses' in resource 'School' is not a property.",
    ],
    [
      'a property named as a collection',
      read('<Collection name="NameOfInstitution" memberSelection="IncludeAll"/>'),
      "Resource 'School' (read): 'NameOfInstitution' in resource 'School' is not a collection.",
    ],
    [
      'an unknown member of a collection',
      read(
        '<Collection name="EducationOrganizationAddresses" memberSelection="IncludeOnly"><Property name="Planet"/></Collection>',
      ),
      "Resource 'School' (read): property 'Planet' is not a member of collection 'EducationOrganizationAddresses'.",
    ],
    [
      'an unknown filter property',
      read(
        '<Collection name="EducationOrganizationAddresses" memberSelection="IncludeAll"><Filter propertyName="ColorDescriptor" filterMode="IncludeOnly"><Value>Red</Value></Filter></Collection>',
      ),
      "Resource 'School' (read): property 'ColorDescriptor' is not a member of the filter of collection 'EducationOrganizationAddresses'.",
    ],
    [
      'an extension the resource does not have',
      read('<Extension name="Sample" memberSelection="IncludeAll"/>'),
      "Resource 'School' (read): extension 'Sample' does not extend resource 'School'.",
    ],
    [
      'an unknown member of an extension',
      read('<Extension name="TPDM" memberSelection="IncludeOnly"><Property name="Mascot"/></Extension>'),
      "Resource 'School' (read): property 'Mascot' is not a member of extension 'TPDM'.",
    ],
    [
      'an unknown member listed under IncludeAll',
      profileXml('P', 'School', undefined, ['IncludeAll', '<Property name="Mascot"/>']),
      "Resource 'School' (write): property 'Mascot' is not a member of resource 'School'.",
    ],
  ])('names %s', async (_name, profile, problem) => {
    expect(await problemsOf(profile)).toEqual([problem]);
  });

  it('finds nothing wrong with a valid definition, and lists what it stored', async () => {
    const valid = read(
      '<Property name="NameOfInstitution"/><Property name="LocalEducationAgencyReference"/>' +
        '<Collection name="EducationOrganizationAddresses" memberSelection="ExcludeOnly"><Property name="Latitude"/>' +
        '<Collection name="EducationOrganizationAddressPeriods" memberSelection="IncludeAll"/>' +
        '<Filter propertyName="AddressTypeDescriptor" filterMode="ExcludeOnly"><Value>Mailing</Value></Filter></Collection>' +
        '<Extension name="tpdm" memberSelection="IncludeAll"/>',
    );
    expect(await problemsOf(valid)).toEqual([]);
    expect(await listProfiles(store, registry)).toEqual([{ name: 'P', resources: ['School'], problems: [] }]);
  });
});
