import { beforeAll, describe, expect, it } from 'vitest';
import { getModelRegistry, type ReferenceModel } from '../../src/model/index.js';
import { describeWithEdfiSource, itWithEdfiSource } from '../support/edfi-source.js';
import { oracleModel, oracleResource, referenceFacts, type OracleResource } from './derived-oracle.js';

const registry = getModelRegistry();

function ourReferenceFacts(references: readonly ReferenceModel[]): string[] {
  return referenceFacts(
    references.map((reference) => ({
      path: reference.path,
      target: reference.target,
      isRequired: reference.required,
      fields: reference.fields.map((field) => ({
        referenceJsonPath: field.referencePath,
        identityJsonPaths: field.targetIdentityPaths,
      })),
    })),
  );
}

const EXAMPLES = [
  ['ed-fi', 'studentSchoolAssociations'],
  ['ed-fi', 'sections'],
  ['ed-fi', 'schools'],
  ['ed-fi', 'students'],
  ['ed-fi', 'studentAssessments'],
  ['tpdm', 'candidates'],
  ['tpdm', 'evaluationRatings'],
] as const;

describeWithEdfiSource('the committed model', () => {
  describe.each(EXAMPLES)('%s/%s against the derived model', (namespace, endpoint) => {
    const ours = registry.getResource(namespace, endpoint)!;
    let oracle: OracleResource;
    let extension: OracleResource | undefined;
    beforeAll(() => {
      oracle = oracleResource(namespace, endpoint);
      extension = namespace === 'ed-fi' ? oracleModel().tpdm[endpoint] : undefined;
    });

    it('has the same identity', () => {
      expect(ours.identityPaths).toEqual([...(oracle.identityJsonPaths ?? [])].sort());
    });

    it('has the same references, targets and field mappings', () => {
      const expected = [
        ...(oracle.references ?? []),
        ...(extension?.isResourceExtension ? (extension.references ?? []) : []),
      ];
      expect(ourReferenceFacts(ours.references)).toEqual(referenceFacts(expected));
    });

    it('has every root-table query field of the derived model (the ODS adds inherited ones)', () => {
      const expected = Object.entries(oracle.queryFields ?? {}).map(([name, paths]) => `${name}=${[...paths].sort()}`);
      const actual = Object.entries(ours.queryFields).map(([name, paths]) => `${name}=${paths}`);
      expect(actual).toEqual(expect.arrayContaining(expected));
    });

    it('has the same allowIdentityUpdates', () => {
      expect(ours.allowIdentityUpdates).toBe(oracle.allowIdentityUpdates === true);
    });
  });
});

describe('every resource against the derived model', () => {
  itWithEdfiSource('has the same identities, descriptor uses and identity-update flags', () => {
    for (const resource of registry.resources) {
      const oracle = oracleResource(resource.namespace, resource.endpoint);
      const extension = resource.namespace === 'ed-fi' ? oracleModel().tpdm[resource.endpoint] : undefined;
      const where = `${resource.namespace}/${resource.endpoint}`;
      expect(resource.identityPaths, where).toEqual([...(oracle.identityJsonPaths ?? [])].sort());
      expect(resource.allowIdentityUpdates, where).toBe(oracle.allowIdentityUpdates === true);
      const descriptors = [
        ...(oracle.descriptors ?? []),
        ...(extension?.isResourceExtension ? (extension.descriptors ?? []) : []),
      ];
      expect(resource.descriptors.map((use) => `${use.path} ${use.descriptor}`).sort(), where).toEqual(
        descriptors.map((use) => `${use.path} ${use.descriptor}`).sort(),
      );
    }
  });

  it('allows identity updates on exactly the eight ODS resources', () => {
    expect(
      registry.resources.filter((resource) => resource.allowIdentityUpdates).map((resource) => resource.endpoint),
    ).toEqual([
      'classPeriods',
      'gradebookEntries',
      'grades',
      'locations',
      'sections',
      'sessions',
      'studentSchoolAssociations',
      'studentSectionAssociations',
    ]);
  });
});
