// Every resource's authorization subjects and GET-by-example parameters against the ODS 7.3 generated code.
import { beforeAll, expect, it } from 'vitest';
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import { describeWithEdfiSource } from '../support/edfi-source.js';
import { odsAuthorizationSubjects, odsGetByExampleParameters } from './ods-generated-oracle.js';

const registry = getModelRegistry();
const keyOf = (resource: ResourceModel) => `${resource.namespace}/${resource.resourceName}`;

/** Our subjects under the ODS's property names: edorg names as they are, people by their USI. */
function subjectNames(resource: ResourceModel): string[] {
  const elements = resource.securableElements;
  return [
    ...elements.educationOrganizations.map((element) => element.name),
    ...elements.students.map(() => 'StudentUSI'),
    ...elements.staffs.map(() => 'StaffUSI'),
    ...elements.contacts.map(() => 'ContactUSI'),
  ].sort();
}

describeWithEdfiSource('authorization subjects', () => {
  let expected: ReturnType<typeof odsAuthorizationSubjects>;
  beforeAll(() => {
    expected = odsAuthorizationSubjects();
  });

  it('equal the generated providers (with the ODS overrides) for every resource', () => {
    for (const resource of registry.resources) {
      expect(subjectNames(resource), keyOf(resource)).toEqual([...(expected.get(keyOf(resource)) ?? [])].sort());
    }
  });

  it('leave out role-named ids unless an override puts them back', () => {
    const subjects = (endpoint: string) => subjectNames(registry.getResource('ed-fi', endpoint)!);
    expect(subjects('studentProgramAssociations')).toEqual(['EducationOrganizationId', 'StudentUSI']);
    expect(subjects('organizationDepartments')).toEqual(['ParentEducationOrganizationId']);
    expect(subjects('disciplineActions')).toEqual(['ResponsibilitySchoolId', 'StudentUSI']);
    expect(subjects('studentAssessments')).toEqual(['ReportedSchoolId', 'StudentUSI']);
    expect(subjects('programEvaluationObjectives')).toEqual(['ProgramEducationOrganizationId']);
  });

  it('locate each edorg subject at the query field of its name', () => {
    for (const resource of registry.resources) {
      for (const { name, path } of resource.securableElements.educationOrganizations) {
        const field = Object.entries(resource.queryFields).find(
          ([field]) => field.toLowerCase() === name.toLowerCase(),
        );
        expect(field?.[1], `${keyOf(resource)} ${name}`).toContain(path);
      }
    }
  });
});

describeWithEdfiSource('GET-by-example parameters', () => {
  let expected: ReturnType<typeof odsGetByExampleParameters>;
  beforeAll(() => {
    expected = odsGetByExampleParameters();
  });

  it('are the GetByExample properties of every resource, inherited ones included', () => {
    for (const resource of registry.resources) {
      const parameters = expected.get(keyOf(resource));
      expect(parameters, keyOf(resource)).toBeDefined();
      // A descriptor's surrogate `{Descriptor}Id` never appears in the API (see the README's compatibility notes).
      const surrogate = resource.isDescriptor ? `${resource.resourceName}Id` : undefined;
      const names = parameters!.filter((name) => name !== surrogate).map((name) => name.toLowerCase());
      expect(
        Object.keys(resource.queryFields)
          .map((name) => name.toLowerCase())
          .sort(),
        keyOf(resource),
      ).toEqual(names.sort());
    }
  });

  it('map inherited members to the document root', () => {
    const schools = registry.getResource('ed-fi', 'schools')!;
    expect(schools.queryFields.nameOfInstitution).toEqual(['$.nameOfInstitution']);
    const programs = registry.getResource('ed-fi', 'studentProgramAssociations')!;
    expect(programs.queryFields.reasonExitedDescriptor).toEqual(['$.reasonExitedDescriptor']);
  });
});
