// ODS member names in the model: what the committed files carry, how the importer derives them from the ODS DDL,
// and that its cross-check against the ODS 7.2 OpenAPI catches a wrong collection name.
import { beforeAll, describe, expect, it } from 'vitest';
import { getModelRegistry, type PropertyShape, type ResourceModel } from '../../src/model/index.js';
import { memberNameProblems } from '../../tools/import/member-name-checks.js';
import { parseOdsDdl } from '../../src/model/import/ods-ddl.js';
import { createOdsNames, postgresName, type OdsEntity } from '../../src/model/import/ods-names.js';
import { readSources } from '../../tools/import/sources.js';
import { describeWithEdfiSource, EDFI_SOURCE_DIR } from '../support/edfi-source.js';

const registry = getModelRegistry();

function nodeAt(namespace: string, endpoint: string, path: string): PropertyShape {
  let node = registry.getResource(namespace, endpoint)!.shape;
  for (const step of path.slice(2).split('.')) {
    const name = step.replace('[*]', '');
    node = node.properties![name]!;
    if (step.endsWith('[*]')) node = node.items!;
  }
  return node;
}

function forEachMember(node: PropertyShape, visit: (name: string, node: PropertyShape) => void): void {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    visit(name, child);
    forEachMember(child, visit);
    if (child.items) forEachMember(child.items, visit);
  }
}

describe('memberName in the committed model', () => {
  it.each([
    ['ed-fi', 'studentSpecialEducationProgramAssociations', '$.iepBeginDate', 'IEPBeginDate'],
    [
      'ed-fi',
      'studentCTEProgramAssociations',
      '$.cteProgramServices[*].cteProgramServiceDescriptor',
      'CTEProgramServiceDescriptor',
    ],
    ['ed-fi', 'studentCTEProgramAssociations', '$.cteProgramServices[*].cipCode', 'CIPCode'],
    ['ed-fi', 'studentSpecialEducationProgramEligibilityAssociations', '$.ideaPartDescriptor', 'IDEAPartDescriptor'],
    [
      'ed-fi',
      'studentNeglectedOrDelinquentProgramAssociations',
      '$.elaProgressLevelDescriptor',
      'ELAProgressLevelDescriptor',
    ],
    ['ed-fi', 'studentMigrantEducationProgramAssociations', '$.usInitialEntry', 'USInitialEntry'],
    ['ed-fi', 'interventions', '$.uris[*].uri', 'URI'],
    [
      'tpdm',
      'candidateEducatorPreparationProgramAssociations',
      '$.eppProgramPathwayDescriptor',
      'EPPProgramPathwayDescriptor',
    ],
  ])('%s/%s %s is %s', (namespace, endpoint, path, name) => {
    expect(nodeAt(namespace, endpoint, path).memberName).toBe(name);
  });

  it.each([
    ['ed-fi', 'interventions', '$.uris', 'InterventionURIs'],
    ['ed-fi', 'interventions', '$.diagnoses', 'InterventionDiagnoses'],
    [
      'ed-fi',
      'studentCTEProgramAssociations',
      '$.cteProgramServices',
      'StudentCTEProgramAssociationCTEProgramServices',
    ],
    ['ed-fi', 'schools', '$.addresses[*].periods', 'EducationOrganizationAddressPeriods'],
    [
      'ed-fi',
      'studentCTEProgramAssociations',
      '$.programParticipationStatuses',
      'GeneralStudentProgramAssociationProgramParticipationStatuses',
    ],
    ['ed-fi', 'surveyQuestions', '$.matrices', 'SurveyQuestionMatrices'],
    [
      'ed-fi',
      'studentSpecialEducationProgramAssociations',
      '$.specialEducationProgramServices[*].providers',
      'StudentSpecialEducationProgramAssociationSpecialEducationProgramServiceServiceProviders',
    ],
    ['ed-fi', 'credentials', '$._ext.tpdm.studentAcademicRecords', 'CredentialStudentAcademicRecords'],
    ['tpdm', 'evaluationElementRatings', '$.elementRatingResults', 'EvaluationElementRatingResults'],
    ['ed-fi', 'studentAcademicRecords', '$.classRanking', 'StudentAcademicRecordClassRanking'],
  ])('%s/%s %s (collection or inline object) is %s', (namespace, endpoint, path, name) => {
    expect(nodeAt(namespace, endpoint, path).memberName).toBe(name);
  });

  it('leaves out names that are the capitalised JSON name', () => {
    expect(nodeAt('ed-fi', 'schools', '$.schoolCategories').memberName).toBeUndefined();
    expect(nodeAt('ed-fi', 'studentSchoolAssociations', '$.entryDate').memberName).toBeUndefined();
    expect(nodeAt('ed-fi', 'studentSchoolAssociations', '$.schoolReference').memberName).toBeUndefined();
    const redundant: string[] = [];
    const counts = { scalar: 0, array: 0, object: 0 };
    for (const resource of registry.allResources) {
      forEachMember(resource.shape, (name, node) => {
        if (node.memberName === undefined) return;
        if (node.memberName === name.charAt(0).toUpperCase() + name.slice(1)) redundant.push(name);
        counts[node.type === 'array' || node.type === 'object' ? node.type : 'scalar']++;
      });
    }
    expect(redundant).toEqual([]);
    expect(counts).toEqual({ scalar: 21, array: 351, object: 9 });
  });
});

describe('ODS names from the DDL', () => {
  const ddl = parseOdsDdl(
    [
      [
        'CREATE TABLE edfi.Intervention (',
        '    InterventionIdentificationCode VARCHAR(60) NOT NULL,',
        '    CONSTRAINT Intervention_PK PRIMARY KEY (InterventionIdentificationCode)',
        ');',
        'CREATE TABLE edfi.InterventionURI (',
        '    URI VARCHAR(255) NOT NULL,',
        '    Uri VARCHAR(306) GENERATED ALWAYS AS ( URI ) STORED,',
        ');',
        'CREATE TABLE edfi.InterventionDiagnosis (',
        '    DiagnosisDescriptorId INT NOT NULL,',
        ');',
        'CREATE TABLE edfi.InterventionDiagnosisDiagnosisProvider (',
        '    IEPBeginDate DATE NULL,',
        ');',
      ].join('\n'),
    ],
    ['InterventionURI', 'InterventionDiagnosis']
      .map(
        (child) =>
          `ALTER TABLE edfi.${child} ADD CONSTRAINT FK_1 FOREIGN KEY (A)\nREFERENCES edfi.Intervention (A)\nON DELETE CASCADE\n;`,
      )
      .concat(
        'ALTER TABLE edfi.InterventionDiagnosisDiagnosisProvider ADD CONSTRAINT FK_2 FOREIGN KEY (A)\n' +
          'REFERENCES edfi.InterventionDiagnosis (A)\nON DELETE CASCADE\nON UPDATE CASCADE\n;',
      ),
  );
  const names = createOdsNames(ddl);
  const intervention: OdsEntity = { table: 'edfi.Intervention', name: 'Intervention' };

  it('finds property names case-insensitively, descriptors without Id, generated columns left out', () => {
    expect(names.propertyName('uri')).toBe('URI');
    expect(names.propertyName('iepBeginDate')).toBe('IEPBeginDate');
    expect(names.propertyName('diagnosisDescriptor')).toBe('DiagnosisDescriptor');
    expect(names.propertyName('nothing')).toBeUndefined();
  });

  it('resolves collections to their child entity: acronym casing, plural, words the JSON name drops', () => {
    expect(names.childEntity([intervention], 'uris', true)).toEqual({
      entity: { table: 'edfi.InterventionURI', name: 'InterventionURI' },
      memberName: 'InterventionURIs',
    });
    const diagnoses = names.childEntity([intervention], 'diagnoses', true);
    expect(diagnoses.memberName).toBe('InterventionDiagnoses');
    expect(names.childEntity([diagnoses.entity], 'providers', true).memberName).toBe(
      'InterventionDiagnosisDiagnosisProviders',
    );
    expect(() => names.childEntity([intervention], 'staffs', true)).toThrow(/0 ODS entities for Intervention.staffs/);
  });

  it('shortens long names as the ODS PostgreSQL DDL does (prefix and SHA-256)', () => {
    expect(postgresName('StudentSpecialEducationProgramAssociationSpecialEducationProgramService')).toBe(
      'StudentSpecialEducationProgramAssociationSpecialEducatio_a51ff9',
    );
    expect(postgresName('InterventionURI')).toBe('InterventionURI');
  });

  it('fails on column names that differ only in case', () => {
    const clash = parseOdsDdl(
      ['CREATE TABLE edfi.A (\n    URI INT,\n    Uri INT,\n);'],
      ['ALTER TABLE edfi.A ADD CONSTRAINT F FOREIGN KEY (X)\nREFERENCES edfi.B (X)\nON DELETE CASCADE\n;'],
    );
    expect(() => createOdsNames(clash)).toThrow(/URI\/Uri/);
  });
});

describeWithEdfiSource('member-name cross-checks', () => {
  let sources: ReturnType<typeof readSources>;
  let names: ReturnType<typeof createOdsNames>;
  beforeAll(() => {
    sources = readSources(EDFI_SOURCE_DIR);
    names = createOdsNames(
      parseOdsDdl(
        [...sources.odsTablesSql, ...sources.extensions.flatMap((extension) => extension.tablesSql)],
        [...sources.odsForeignKeysSql, ...sources.extensions.flatMap((extension) => extension.foreignKeysSql)],
      ),
    );
  });

  it('finds the committed names consistent with the ApiModel, MetaEd names and the ODS 7.2 OpenAPI', () => {
    expect(memberNameProblems(registry.allResources, sources, names)).toEqual([]);
  });

  it('reports a collection named otherwise than the ODS 7.2 OpenAPI describes it', () => {
    const schools = registry.getResource('ed-fi', 'schools')!;
    const addresses = schools.shape.properties!.addresses!;
    const renamed: ResourceModel = {
      ...schools,
      shape: {
        ...schools.shape,
        properties: { ...schools.shape.properties, addresses: { ...addresses, memberName: 'SchoolAddresses' } },
      },
    };
    expect(memberNameProblems([renamed], sources, names)).toEqual([
      'schools.addresses: collection SchoolAddresses, ODS 7.2 educationOrganizationAddresses',
    ]);
  });
});
