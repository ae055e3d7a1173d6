// The test-data generator: minimal and full documents for every resource and descriptor validate and come back
// unchanged; full documents fill every member; output is deterministic; references follow the resolver.
import { describe, expect, it } from 'vitest';
import {
  compilePathCollector,
  getModelRegistry,
  type PropertyShape,
  type ResourceModel,
} from '../../src/model/index.js';
import { validatorFor, type JsonObject } from '../../src/model/validation/index.js';
import { fullDocument, minimalDocument, type ReferenceRequest } from '../../src/testing/index.js';
import { defaultDescriptors, resource } from '../validation/support.js';

const registry = getModelRegistry();

function memberPaths(shape: PropertyShape, path = '$'): string[] {
  const paths: string[] = [];
  for (const [name, property] of Object.entries(shape.properties ?? {})) {
    const member = `${path}.${name}`;
    paths.push(member);
    if (property.type === 'object') paths.push(...memberPaths(property, member));
    if (property.type === 'array') paths.push(...memberPaths(property.items ?? { type: 'object' }, `${member}[*]`));
  }
  return paths;
}

function isPresent(document: JsonObject, path: string): boolean {
  let found = false;
  compilePathCollector(path)(document, () => (found = true));
  return found;
}

function requiredOnlyPaths(shape: PropertyShape, path = '$'): string[] {
  return Object.entries(shape.properties ?? {})
    .filter(([, property]) => property.required || (property.minItems ?? 0) > 0)
    .flatMap(([name, property]) => {
      const member = `${path}.${name}`;
      if (property.kind === 'reference') return [member, ...memberPaths(property, member)];
      if (property.type === 'object') return [member, ...requiredOnlyPaths(property, member)];
      if (property.type === 'array')
        return [member, ...requiredOnlyPaths(property.items ?? { type: 'object' }, `${member}[*]`)];
      return [member];
    });
}

async function expectRoundTrip(model: ResourceModel, document: JsonObject): Promise<void> {
  const result = await validatorFor(model).validateInsertWithDescriptors(document, defaultDescriptors);
  expect(result.ok ? result.document : result.failure).toEqual(document);
}

describe('every resource and descriptor', () => {
  it.each(registry.allResources.map((model) => [`${model.namespace}/${model.endpoint}`, model] as const))(
    '%s: minimal and full documents validate unchanged',
    async (_name, model) => {
      await expectRoundTrip(model, minimalDocument(model));
      await expectRoundTrip(model, fullDocument(model, undefined, { seed: 7 }));
    },
  );

  it('fills every member in full documents and only required members in minimal ones', () => {
    for (const model of registry.allResources) {
      const full = fullDocument(model);
      const missing = memberPaths(model.shape).filter((path) => !isPresent(full, path));
      expect(missing, model.endpoint).toEqual([]);
      const minimal = minimalDocument(model);
      const allowed = new Set(requiredOnlyPaths(model.shape));
      const extra = memberPaths(model.shape).filter((path) => isPresent(minimal, path) && !allowed.has(path));
      expect(extra, model.endpoint).toEqual([]);
    }
  });

  it('gives full-document collections two distinct items unless references collapse them', () => {
    const document = fullDocument(resource('schools'));
    expect(document.gradeLevels).toHaveLength(2);
    expect(document.addresses).toHaveLength(2);
    expect((document.addresses as JsonObject[])[0]?.periods).toHaveLength(2);
  });
});

describe('values', () => {
  it('uses the model default descriptor values', () => {
    const uri = fullDocument(resource('studentSchoolAssociations')).entryGradeLevelDescriptor;
    const defaults = registry
      .descriptorValuesOf('GradeLevelDescriptor')
      .map((value) => `${value.namespace}#${value.codeValue}`);
    expect(defaults).toContain(uri);
  });

  it('generates TPDM descriptor URIs in the TPDM namespace', () => {
    const document = minimalDocument(resource('candidates', 'tpdm'));
    const uris = resource('candidates', 'tpdm')
      .descriptors.filter((use) => use.descriptorNamespace === 'tpdm' && !use.path.includes('[*]'))
      .map((use) => document[use.path.slice(2)])
      .filter((value) => value !== undefined);
    for (const uri of uris) expect(uri).toMatch(/^uri:\/\/tpdm\.ed-fi\.org\/\w+Descriptor#/);
  });

  it('is deterministic per seed and varies identities across seeds', () => {
    const students = resource('students');
    expect(fullDocument(students, undefined, { seed: 3 })).toEqual(fullDocument(students, undefined, { seed: 3 }));
    expect(minimalDocument(students, undefined, { seed: 3 }).studentUniqueId).not.toEqual(
      minimalDocument(students, undefined, { seed: 4 }).studentUniqueId,
    );
  });

  it('gives namespace members Ed-Fi namespace URIs', () => {
    expect(minimalDocument(resource('assessments')).namespace).toBe('uri://ed-fi.org/Assessment');
  });
});

describe('references', () => {
  it('takes reference values from the resolver, by the target identity paths', () => {
    const requests: ReferenceRequest[] = [];
    const document = fullDocument(resource('studentSchoolAssociations'), (request): JsonObject | undefined => {
      requests.push(request);
      if (request.reference.target === 'Student') return { studentUniqueId: '604822', firstName: 'Lisa' };
      if (request.reference.target === 'School') return { schoolId: 255901001 };
      if (request.reference.target === 'Calendar') {
        return {
          calendarCode: 'IEP',
          schoolReference: { schoolId: 255901001 },
          schoolYearTypeReference: { schoolYear: 2022 },
        };
      }
      return undefined;
    });
    expect(document.studentReference).toEqual({ studentUniqueId: '604822' });
    expect(document.calendarReference).toEqual({ calendarCode: 'IEP', schoolId: 255901001, schoolYear: 2022 });
    expect(requests.map((request) => request.path)).toContain(
      '$.alternativeGraduationPlans[1].alternativeGraduationPlanReference',
    );
  });

  it('makes key-unified values agree, preferring the identity reference', () => {
    const document = minimalDocument(resource('studentSchoolAssociations'), (request) =>
      request.reference.target === 'School' ? { schoolId: 255901001 } : undefined,
    );
    const withCalendar = fullDocument(resource('studentSchoolAssociations'), (request) =>
      request.reference.target === 'School' ? { schoolId: 255901001 } : undefined,
    );
    expect(document.schoolReference).toEqual({ schoolId: 255901001 });
    expect((withCalendar.calendarReference as JsonObject).schoolId).toBe(255901001);
  });

  it('keeps one item when the resolver gives every item the same target', () => {
    const document = fullDocument(resource('bellSchedules'), (request) =>
      request.reference.target === 'ClassPeriod'
        ? { classPeriodName: '01', schoolReference: { schoolId: 1 } }
        : undefined,
    );
    expect(document.classPeriods).toHaveLength(1);
  });
});
