import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getInterchangeMappings, type XmlElementMapping } from '../../src/load/xml/interchange-mapping.js';
import { getModelRegistry, type PropertyShape } from '../../src/model/index.js';
import { buildInterchanges } from '../../tools/interchanges/build-interchanges.js';
import { readXsdSchema } from '../../tools/interchanges/xsd-schema.js';
import { describeWithEdfiSource, EDFI_SOURCE_DIR } from '../support/edfi-source.js';

function xsdFiles(): string[] {
  const inFolder = (folder: string): string[] =>
    readdirSync(path.join(EDFI_SOURCE_DIR, folder))
      .filter((name) => name.endsWith('.xsd'))
      .sort()
      .map((name) => path.join(EDFI_SOURCE_DIR, folder, name));
  return [path.join(EDFI_SOURCE_DIR, 'Ed-Fi-Core.xsd'), ...inFolder('xsd'), ...inFolder('tpdm-xsd')];
}

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
  let build: ReturnType<typeof buildInterchanges>;
  beforeAll(() => {
    build = buildInterchanges(readXsdSchema(xsdFiles()), getModelRegistry());
  });

  it('is what tools/import-interchanges.ts derives from the XSDs and the model today', () => {
    const committed = readFileSync(path.resolve(import.meta.dirname, '../../model/interchanges.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(build.file, null, 2)}\n`);
  });

  it('maps every XSD element except the descriptors’ PriorDescriptor, which the API model dropped', () => {
    const unmapped = build.unmapped.filter((element) => !element.location.endsWith('Descriptor/PriorDescriptor'));
    expect(unmapped).toEqual([]);
    expect(build.unmapped).toHaveLength(229); // the 211 ed-fi and 18 tpdm descriptor types
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

  it('reaches every property of every resource that an interchange carries', () => {
    const registry = getModelRegistry();
    const unreached: string[] = [];
    for (const [element, mapping] of Object.entries(getInterchangeMappings().documents)) {
      const resource = registry.getResource(mapping.namespace, mapping.endpoint)!;
      const reached = mappedPaths(mapping.children, '$', new Set());
      for (const leaf of leafPaths(resource.shape, '$', new Set()))
        if (!reached.has(leaf)) unreached.push(`${element} ${leaf}`);
    }
    expect(unreached).toEqual([]);
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
