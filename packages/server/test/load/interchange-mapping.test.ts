import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  getInterchangeMappings,
  InterchangeMappingConflict,
  mergeInterchangeMappings,
  type InterchangeMappings,
  type XmlElementMapping,
} from '../../src/load/xml/interchange-mapping.js';
import { getModelRegistry, type PropertyShape } from '../../src/model/index.js';
import { shippedExtensionFolders } from '../../tools/edfi-source.js';
import { buildInterchangesFile, type InterchangesFileBuild } from '../../tools/interchanges/interchanges-file.js';
import { describeWithEdfiSource, EDFI_SOURCE_DIR } from '../support/edfi-source.js';

function leafPaths(shape: PropertyShape, prefix: string, into: Set<string>): Set<string> {
  for (const [name, property] of Object.entries(shape.properties ?? {})) {
    if (property.type === 'object') leafPaths(property, `${prefix}.${name}`, into);
    else if (property.type === 'array' && property.items) leafPaths(property.items, `${prefix}.${name}[*]`, into);
    else into.add(`${prefix}.${name}`);
  }
  return into;
}

function mappedPaths(children: XmlElementMapping['children'], prefix: string, into: Set<string>): Set<string> {
  for (const mapping of Object.values(children ?? {})) {
    if (!mapping) continue;
    const at = (mapping.path ?? []).reduce(
      (path, step) => (step.endsWith('[]') ? `${path}.${step.slice(0, -2)}[*]` : `${path}.${step}`),
      prefix,
    );
    for (const property of mapping.set === undefined ? [] : [mapping.set].flat()) into.add(`${at}.${property}`);
    mappedPaths(mapping.children, at, into);
  }
  return into;
}

describeWithEdfiSource('the interchange mapping (model/interchanges.json) against the XSDs', () => {
  let build: InterchangesFileBuild;
  beforeAll(() => {
    build = buildInterchangesFile(EDFI_SOURCE_DIR, shippedExtensionFolders(EDFI_SOURCE_DIR));
  });

  it('is what tools/import-interchanges.ts derives from the XSDs and the model today', () => {
    const committed = readFileSync(path.resolve(import.meta.dirname, '../../model/interchanges.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(build.file, null, 2)}\n`);
  });

  it('maps every XSD element except the descriptors’ PriorDescriptor, which the API model dropped', () => {
    const unmapped = build.unmapped.filter((element) => !element.location.endsWith('Descriptor/PriorDescriptor'));
    expect(unmapped).toEqual([]);
    // The 211 ed-fi and 18 tpdm descriptor types, then the 211 core and 3 Sample ones of Sample's descriptor interchange.
    expect(build.unmapped).toHaveLength(229 + 214);
  });

  it('has a part of its own for Sample (Homograph ships no XSD): the elements its XSD extends or adds', () => {
    expect(Object.keys(build.file.extensions)).toEqual(['sample']);
    expect(Object.keys(build.file.extensions.sample!.documents).sort()).toEqual([
      'ArtMediumDescriptor',
      'Contact',
      'FavoriteBookCategoryDescriptor',
      'MembershipTypeDescriptor',
      'School',
      'Staff',
      'Student',
      'StudentAcademicRecord',
      'StudentCTEProgramAssociation',
      'StudentContactAssociation',
      'StudentEducationOrganizationAssociation',
      'StudentSchoolAssociation',
      'StudentSectionAssociation',
    ]);
  });
});

describe('the interchange mapping (model/interchanges.json)', () => {
  it('covers every interchange element: a document of one resource, or a stated reason why not', () => {
    const { documents, notDocuments } = getInterchangeMappings();
    expect(Object.keys(documents)).toHaveLength(378);
    expect(notDocuments).toEqual({
      AssessmentItemReference: expect.stringMatching(/reference declaration/),
      AssessmentReference: expect.stringMatching(/reference declaration/),
      EducationOrganization: expect.stringMatching(/abstract type/),
      LearningStandardReference: expect.stringMatching(/reference declaration/),
      ObjectiveAssessmentReference: expect.stringMatching(/reference declaration/),
      SectionReference: expect.stringMatching(/reference declaration/),
    });
  });

  function unreachedProperties(extensions: string[]): string[] {
    const registry = getModelRegistry(extensions);
    const unreached: string[] = [];
    for (const [element, mapping] of Object.entries(getInterchangeMappings(extensions).documents)) {
      const resource = registry.getResource(mapping.namespace, mapping.endpoint)!;
      const reached = mappedPaths(mapping.children, '$', new Set());
      for (const leaf of leafPaths(resource.shape, '$', new Set()))
        if (!reached.has(leaf)) unreached.push(`${element} ${leaf}`);
    }
    return unreached;
  }

  it('reaches every property of every resource that an interchange carries', () => {
    expect(unreachedProperties([])).toEqual([]);
  });

  it('with Sample, reaches its _ext.sample properties too, at the root and inside collection items', () => {
    // Sample's XSD gives an aquatic pet only its tank volume: MetaEd left out the members it shares with a pet.
    expect(unreachedProperties(['sample'])).toEqual([
      'Student $._ext.sample.aquaticPets[*].isFixed',
      'Student $._ext.sample.aquaticPets[*].petName',
    ]);
    const contact = getInterchangeMappings(['sample']).documents.Contact!.children;
    expect(contact.Address?.path).toEqual(['addresses[]']);
    expect(contact.Address?.children?.OnBusRoute).toEqual({
      path: ['_ext', 'sample'],
      set: 'onBusRoute',
      type: 'boolean',
    });
    expect(contact.IsSportsFan).toEqual({ path: ['_ext', 'sample'], set: 'isSportsFan', type: 'boolean' });
  });

  it('leaves the base untouched for a load that does not serve Sample', () => {
    const contact = getInterchangeMappings([]).documents.Contact!.children;
    expect(contact.IsSportsFan).toBeUndefined();
    expect(contact.Address?.children?.OnBusRoute).toBeUndefined();
  });

  it('refuses to merge an element that two schemas convert differently', () => {
    const base: InterchangeMappings = {
      documents: {
        Bus: { namespace: 'sample', endpoint: 'buses', children: { BusId: { set: 'busId', type: 'string' } } },
      },
      notDocuments: {},
    };
    const clashing: InterchangeMappings = {
      documents: {
        Bus: { namespace: 'sample', endpoint: 'buses', children: { BusId: { set: 'id', type: 'string' } } },
      },
      notDocuments: {},
    };
    expect(() => mergeInterchangeMappings(base, clashing)).toThrow(InterchangeMappingConflict);
    expect(() => mergeInterchangeMappings(base, clashing)).toThrow('Bus/BusId converts differently');
  });

  it('leaves out only the resources no DS 5.2 interchange carries', () => {
    const mapped = new Set(
      Object.values(getInterchangeMappings().documents).map((d) => `${d.namespace}/${d.endpoint}`),
    );
    const unmapped = getModelRegistry()
      .allResources.map((resource) => `${resource.namespace}/${resource.endpoint}`)
      .filter((resource) => !mapped.has(resource));
    expect(unmapped).toEqual([
      'ed-fi/descriptorMappings',
      'ed-fi/schoolYearTypes',
      'ed-fi/studentAssessmentEducationOrganizationAssociations',
      'ed-fi/studentSpecialEducationProgramEligibilityAssociations',
    ]);
  });
});
