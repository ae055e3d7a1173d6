// The profile XML reader against the rules of Ed-Fi-ODS-API-Profiles.xsd, and the writer that exports what it read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProfilesXml, ProfileDefinitionError, profilesXml } from '../../src/profiles/index.js';
import { EDFI_SOURCE_DIR } from '../support/edfi-source.js';
import { describeWithEdfiSource } from '../support/edfi-source.js';

const EVERY_CONSTRUCT = `<?xml version="1.0" encoding="utf-8"?>
<Profiles>
  <Profile name="Every-Construct">
    <Resource name="School" logicalSchema="Ed-Fi">
      <ReadContentType memberSelection="IncludeOnly">
        <Property name="NameOfInstitution" />
        <Object name="Nested" memberSelection="ExcludeOnly">
          <Property name="A" />
          <Extension name="Sample" memberSelection="IncludeAll" />
        </Object>
        <Collection name="EducationOrganizationAddresses" memberSelection="IncludeOnly" logicalSchema="Ed-Fi">
          <Property name="City" />
          <Filter propertyName="AddressTypeDescriptor" filterMode="IncludeOnly">
            <Value>Physical</Value>
            <Value>Mailing &amp; Other</Value>
          </Filter>
        </Collection>
        <Extension name="TPDM" memberSelection="ExcludeAll">
          <Object name="X" memberSelection="IncludeAll" />
          <Collection name="Y" memberSelection="ExcludeOnly">
            <Filter propertyName="Z" filterMode="ExcludeOnly"><Value>v</Value></Filter>
          </Collection>
        </Extension>
      </ReadContentType>
      <WriteContentType memberSelection="IncludeAll" />
    </Resource>
  </Profile>
  <Profile name="Second"><Resource name="Student"><WriteContentType memberSelection="ExcludeAll" /></Resource></Profile>
</Profiles>`;

function refusal(xml: string): string {
  try {
    parseProfilesXml(xml);
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileDefinitionError);
    return (error as Error).message;
  }
  throw new Error('the definition was accepted');
}

const wrap = (inner: string): string =>
  `<Profiles><Profile name="p"><Resource name="School">${inner}</Resource></Profile></Profiles>`;

describe('profile XML', () => {
  it('reads every construct of the XSD into the definition', () => {
    const [first, second] = parseProfilesXml(EVERY_CONSTRUCT);
    const school = first!.resources[0]!;
    expect(school).toMatchObject({ name: 'School', logicalSchema: 'Ed-Fi' });
    expect(school.read!.memberSelection).toBe('IncludeOnly');
    expect(school.read!.properties).toEqual(['NameOfInstitution']);
    expect(school.read!.objects[0]).toMatchObject({
      name: 'Nested',
      memberSelection: 'ExcludeOnly',
      properties: ['A'],
    });
    expect(school.read!.objects[0]!.extensions[0]).toMatchObject({ name: 'Sample', memberSelection: 'IncludeAll' });
    expect(school.read!.collections[0]).toMatchObject({
      name: 'EducationOrganizationAddresses',
      logicalSchema: 'Ed-Fi',
      filter: {
        propertyName: 'AddressTypeDescriptor',
        filterMode: 'IncludeOnly',
        values: ['Physical', 'Mailing & Other'],
      },
    });
    const extension = school.read!.extensions[0]!;
    expect(extension).toMatchObject({ name: 'TPDM', memberSelection: 'ExcludeAll' });
    expect(extension.collections[0]!.filter).toEqual({ propertyName: 'Z', filterMode: 'ExcludeOnly', values: ['v'] });
    expect(school.write).toMatchObject({ memberSelection: 'IncludeAll', properties: [] });
    expect(second).toMatchObject({
      name: 'Second',
      resources: [{ name: 'Student', write: { memberSelection: 'ExcludeAll' } }],
    });
  });

  it('exports what it reads: the written XML reads back to the same definitions', () => {
    const definitions = parseProfilesXml(EVERY_CONSTRUCT);
    expect(parseProfilesXml(profilesXml(definitions))).toEqual(definitions);
  });

  it.each([
    ['a document that is not XML', '<Profiles><Profile name="p">', /not well-formed XML/],
    ['another root element', '<Profile name="p" />', /root element must be 'Profiles'/],
    ['no profile', '<Profiles />', /must contain a 'Profile' element/],
    [
      'a profile without a name',
      '<Profiles><Profile><Resource name="School" /></Profile></Profiles>',
      /required attribute 'name' is missing on 'Profile'/,
    ],
    ['a profile without resources', '<Profiles><Profile name="p" /></Profiles>', /'Profile' must contain a 'Resource'/],
    [
      'the same profile twice',
      '<Profiles><Profile name="p"><Resource name="School" /></Profile><Profile name="P"><Resource name="School" /></Profile></Profiles>',
      /Profile 'P' is defined more than once/,
    ],
    [
      'the same resource twice',
      '<Profiles><Profile name="p"><Resource name="School" /><Resource name="School" /></Profile></Profiles>',
      /resource 'School' is defined more than once/,
    ],
    [
      'write before read',
      wrap('<WriteContentType memberSelection="IncludeAll" /><ReadContentType memberSelection="IncludeAll" />'),
      /'ReadContentType' is not expected in 'Resource'/,
    ],
    [
      'two read content types',
      wrap('<ReadContentType memberSelection="IncludeAll" /><ReadContentType memberSelection="IncludeAll" />'),
      /at most once/,
    ],
    ['no memberSelection', wrap('<ReadContentType />'), /required attribute 'memberSelection' is missing/],
    [
      'an unknown memberSelection',
      wrap('<ReadContentType memberSelection="IncludeSome" />'),
      /'IncludeSome' is not a valid memberSelection/,
    ],
    [
      'a property after a collection',
      wrap(
        '<ReadContentType memberSelection="IncludeOnly"><Collection name="C" memberSelection="IncludeAll" /><Property name="P" /></ReadContentType>',
      ),
      /'Property' is not expected/,
    ],
    [
      'an unknown element',
      wrap('<ReadContentType memberSelection="IncludeOnly"><Member name="P" /></ReadContentType>'),
      /'Member' is not expected/,
    ],
    [
      'an unknown attribute',
      wrap('<ReadContentType memberSelection="IncludeOnly" mode="x" />'),
      /attribute 'mode' is not allowed/,
    ],
    [
      'an object without memberSelection',
      wrap('<ReadContentType memberSelection="IncludeOnly"><Object name="O" /></ReadContentType>'),
      /'memberSelection' is missing on 'Object'/,
    ],
    [
      'a filter outside a collection',
      wrap(
        '<ReadContentType memberSelection="IncludeOnly"><Object name="O" memberSelection="IncludeAll"><Filter propertyName="D" filterMode="IncludeOnly"><Value>v</Value></Filter></Object></ReadContentType>',
      ),
      /'Filter' is not expected in 'Object'/,
    ],
    [
      'a filter without values',
      wrap(
        '<ReadContentType memberSelection="IncludeOnly"><Collection name="C" memberSelection="IncludeAll"><Filter propertyName="D" filterMode="IncludeOnly" /></Collection></ReadContentType>',
      ),
      /'Filter' must contain a 'Value'/,
    ],
    [
      'a filter mode of IncludeAll',
      wrap(
        '<ReadContentType memberSelection="IncludeOnly"><Collection name="C" memberSelection="IncludeAll"><Filter propertyName="D" filterMode="IncludeAll"><Value>v</Value></Filter></Collection></ReadContentType>',
      ),
      /'IncludeAll' is not a valid filterMode/,
    ],
    [
      'an extension inside an extension',
      wrap(
        '<ReadContentType memberSelection="IncludeOnly"><Extension name="E" memberSelection="IncludeAll"><Extension name="F" memberSelection="IncludeAll" /></Extension></ReadContentType>',
      ),
      /'Extension' is not expected in 'Extension'/,
    ],
    [
      'text in a content type',
      wrap('<ReadContentType memberSelection="IncludeAll">text</ReadContentType>'),
      /may not contain text/,
    ],
  ])('refuses %s with the reason and line', (_name, xml, reason) => {
    const message = refusal(xml);
    expect(message).toMatch(reason);
    if (!/well-formed/.test(message)) expect(message).toMatch(/^Line \d+: /);
  });
});

describeWithEdfiSource('the ODS template Profiles.xml', () => {
  it('reads as two resources with IncludeAll read and write content', () => {
    const xml = readFileSync(path.join(EDFI_SOURCE_DIR, 'ods-features', 'profiles', 'Profiles.xml'), 'utf8');
    const [profile] = parseProfilesXml(xml);
    expect(profile!.name).toBe('School-and-Student-Sample');
    expect(
      profile!.resources.map((resource) => [
        resource.name,
        resource.read?.memberSelection,
        resource.write?.memberSelection,
      ]),
    ).toEqual([
      ['School', 'IncludeAll', 'IncludeAll'],
      ['Student', 'IncludeAll', 'IncludeAll'],
    ]);
  });
});
