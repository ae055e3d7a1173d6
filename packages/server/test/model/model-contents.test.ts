import { describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { itWithEdfiSource } from '../support/edfi-source.js';
import { oracleModel } from './derived-oracle.js';

const registry = getModelRegistry();

function endpoints(namespace: string, isDescriptor: boolean): string[] {
  return registry.allResources
    .filter((resource) => resource.namespace === namespace && resource.isDescriptor === isDescriptor)
    .map((resource) => resource.endpoint);
}

describe('model contents', () => {
  it('has every ed-fi and TPDM resource and descriptor', () => {
    expect(endpoints('ed-fi', false)).toHaveLength(138);
    expect(endpoints('ed-fi', true)).toHaveLength(211);
    expect(endpoints('tpdm', false)).toEqual([
      'candidateEducatorPreparationProgramAssociations',
      'candidates',
      'educatorPreparationPrograms',
      'evaluationElementRatings',
      'evaluationElements',
      'evaluationObjectiveRatings',
      'evaluationObjectives',
      'evaluationRatings',
      'evaluations',
      'financialAids',
      'performanceEvaluationRatings',
      'performanceEvaluations',
      'rubricDimensions',
      'surveyResponsePersonTargetAssociations',
      'surveySectionResponsePersonTargetAssociations',
    ]);
    expect(endpoints('tpdm', true)).toHaveLength(18);
  });

  itWithEdfiSource('matches the derived endpoint lists exactly', () => {
    for (const namespace of ['ed-fi', 'tpdm'] as const) {
      const expected = Object.entries(oracleModel()[namespace])
        .filter(([, resource]) => !resource.isResourceExtension)
        .map(([endpoint]) => endpoint)
        .sort();
      const actual = registry.allResources
        .filter((resource) => resource.namespace === namespace)
        .map((resource) => resource.endpoint)
        .sort();
      expect(actual).toEqual(expected);
    }
  });

  it('merges the TPDM extensions into schools, credentials and surveyResponses', () => {
    const extended = registry.resources.filter((resource) => resource.extensions.includes('tpdm'));
    expect(extended.map((resource) => resource.endpoint).sort()).toEqual(['credentials', 'schools', 'surveyResponses']);
    const schools = registry.getResource('ed-fi', 'schools')!;
    expect(schools.shape.properties?._ext?.properties?.tpdm?.properties?.postSecondaryInstitutionReference?.kind).toBe(
      'reference',
    );
    expect(schools.references.map((reference) => reference.path)).toContain(
      '$._ext.tpdm.postSecondaryInstitutionReference',
    );
    const credentials = registry.getResource('ed-fi', 'credentials')!;
    expect(
      credentials.collections.find((c) => c.path === '$._ext.tpdm.studentAcademicRecords[*]')?.itemIdentity,
    ).toEqual([
      '$.studentAcademicRecordReference.educationOrganizationId',
      '$.studentAcademicRecordReference.schoolYear',
      '$.studentAcademicRecordReference.studentUniqueId',
      '$.studentAcademicRecordReference.termDescriptor',
    ]);
  });

  it('has the abstract resources with their subclasses', () => {
    expect(registry.subclassesOf('EducationOrganization').map((r) => r.endpoint)).toHaveLength(9);
    expect(registry.subclassesOf('GeneralStudentProgramAssociation').map((r) => r.endpoint)).toContain(
      'studentSection504ProgramAssociations',
    );
    expect(registry.getResource('ed-fi', 'schools')!.superclass).toEqual({
      resourceName: 'EducationOrganization',
      identityRename: { from: '$.schoolId', to: '$.educationOrganizationId' },
    });
  });

  it('looks endpoints up case-insensitively and names per namespace', () => {
    expect(registry.getResource('ED-FI', 'StudentSchoolAssociations')?.resourceName).toBe('StudentSchoolAssociation');
    expect(registry.getResource('ed-fi', 'nope')).toBeUndefined();
    expect(registry.getResourceByName('GenderDescriptor')?.namespace).toBe('tpdm');
    expect(registry.getResourceByName('Candidate', 'tpdm')?.endpoint).toBe('candidates');
  });

  it('gives every identity member a required, identity-flagged shape node', () => {
    for (const resource of registry.allResources) {
      for (const path of resource.identityPaths) {
        let node = resource.shape;
        for (const name of path.slice(2).split('.')) node = node.properties![name]!;
        expect(node.required && node.isIdentity, `${resource.endpoint} ${path}`).toBe(true);
      }
    }
  });

  it('records the model traps: durations as strings, required identification documents, decimals', () => {
    const assessmentItems = registry.getResource('ed-fi', 'assessmentItems')!;
    expect(assessmentItems.shape.properties!.expectedTimeAssessed).toEqual({ type: 'string', maxLength: 30 });
    const documents = registry.getResource('ed-fi', 'students')!.shape.properties!.identificationDocuments!.items!;
    expect(documents.properties!.identificationDocumentUseDescriptor!.required).toBe(true);
    expect(documents.properties!.personalInformationVerificationDescriptor!.required).toBe(true);
    const fte = registry.getResource('ed-fi', 'studentSchoolAssociations')!.shape.properties!.fullTimeEquivalency;
    expect(fte).toEqual({ type: 'number', decimal: { precision: 5, scale: 4 }, minimum: 0, maximum: 9.9999 });
    const schoolYears = registry.getResource('ed-fi', 'schoolYearTypes')!;
    expect(schoolYears.isSchoolYearEnumeration).toBe(true);
    expect(Object.keys(schoolYears.shape.properties!).sort()).toEqual([
      'currentSchoolYear',
      'schoolYear',
      'schoolYearDescription',
    ]);
  });

  it('loads default descriptors, school years and claims', () => {
    expect(registry.descriptorValuesOf('GradeLevelDescriptor').map((value) => value.codeValue)).toContain(
      'Ninth grade',
    );
    expect(registry.descriptorValuesOf('ContinuationOfServicesReasonDescriptor')[0]?.namespace).toBe(
      'uri://ed-fi.org/ContinuationofServicesReasonDescriptor',
    );
    expect(registry.descriptorValuesOf('GenderDescriptor')).toEqual([]);
    const years = registry.schoolYears.map((year) => year.schoolYear);
    expect([years[0], years.at(-1), years.length]).toEqual([1991, 2050, 60]);
    expect(registry.schoolYears[0]).toEqual({
      schoolYear: 1991,
      schoolYearDescription: '1990-1991',
      currentSchoolYear: false,
    });
    const claimNames = new Set<string>();
    const walk = (nodes: typeof registry.claims.hierarchy): void =>
      nodes.forEach((node) => {
        claimNames.add(node.name);
        walk(node.children ?? []);
      });
    walk(registry.claims.hierarchy);
    for (const resource of registry.allResources) expect(claimNames.has(resource.resourceClaim)).toBe(true);
    expect(registry.claims.claimSets.map((claimSet) => claimSet.name)).toContain('Ed-Fi Sandbox');
  });
});
