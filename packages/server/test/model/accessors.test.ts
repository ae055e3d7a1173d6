import { describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';

const registry = getModelRegistry();

function accessors(namespace: string, endpoint: string) {
  const resource = registry.getResource(namespace, endpoint);
  if (!resource) throw new Error(`No ${namespace}/${endpoint}`);
  return registry.accessorsOf(resource);
}

const enrollment = {
  studentReference: { studentUniqueId: '604822' },
  schoolReference: { schoolId: 255901001 },
  entryDate: '2021-08-23',
  entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  calendarReference: { calendarCode: '2010605675', schoolId: 255901001, schoolYear: 2022 },
  graduationPlanReference: {
    educationOrganizationId: 255901,
    graduationPlanTypeDescriptor: 'uri://ed-fi.org/GraduationPlanTypeDescriptor#Recommended',
  },
  alternativeGraduationPlans: [
    {
      alternativeGraduationPlanReference: {
        educationOrganizationId: 255901,
        graduationPlanTypeDescriptor: 'uri://ed-fi.org/GraduationPlanTypeDescriptor#Minimum',
        graduationSchoolYear: 2025,
      },
    },
  ],
  educationPlans: [{ educationPlanDescriptor: 'uri://ed-fi.org/EducationPlanDescriptor#Career Pathway' }],
};

describe('identityOf', () => {
  it('reads identity values in identity-path order with a canonical key', () => {
    const identity = accessors('ed-fi', 'studentSchoolAssociations').identityOf(enrollment);
    expect(identity.values).toEqual(['2021-08-23', 255901001, '604822']);
    expect(identity.key).toBe('["2021-08-23",255901001,"604822"]');
  });

  it('matches descriptor identity members case-insensitively', () => {
    const { identityOf } = accessors('ed-fi', 'gradeLevelDescriptors');
    const a = identityOf({ namespace: 'uri://ed-fi.org/GradeLevelDescriptor', codeValue: 'Ninth grade' });
    const b = identityOf({ namespace: 'uri://ed-fi.org/GradeLevelDescriptor', codeValue: 'Ninth grade' });
    expect(a.key).toBe(b.key);
    const program = accessors('ed-fi', 'programs');
    const lower = {
      educationOrganizationReference: { educationOrganizationId: 1 },
      programName: 'P',
      programTypeDescriptor: 'uri://ed-fi.org/programtypedescriptor#x',
    };
    const upper = { ...lower, programTypeDescriptor: 'uri://ed-fi.org/ProgramTypeDescriptor#X' };
    expect(program.identityOf(lower).key).toBe(program.identityOf(upper).key);
  });

  it('gives subclasses their identity as the abstract superclass sees it', () => {
    const school = accessors('ed-fi', 'schools');
    expect(school.superclassIdentityOf!({ schoolId: 255901001 }).values).toEqual([255901001]);
    expect(accessors('ed-fi', 'students').superclassIdentityOf).toBeUndefined();
  });
});

describe('referencesOf', () => {
  it('finds root and collection references with target keys matching the targets identity keys', () => {
    const references = accessors('ed-fi', 'studentSchoolAssociations').referencesOf(enrollment);
    expect(references.map((reference) => [reference.path, reference.reference.target, reference.isComplete])).toEqual([
      ['$.alternativeGraduationPlans[0].alternativeGraduationPlanReference', 'GraduationPlan', true],
      ['$.calendarReference', 'Calendar', true],
      ['$.graduationPlanReference', 'GraduationPlan', false],
      ['$.schoolReference', 'School', true],
      ['$.studentReference', 'Student', true],
    ]);
    const calendar = {
      calendarCode: '2010605675',
      schoolReference: { schoolId: 255901001 },
      schoolYearTypeReference: { schoolYear: 2022 },
    };
    const calendarReference = references.find((reference) => reference.path === '$.calendarReference')!;
    expect(calendarReference.targetIdentity.key).toBe(accessors('ed-fi', 'calendars').identityOf(calendar).key);
    const student = accessors('ed-fi', 'students').identityOf({ studentUniqueId: '604822' });
    expect(references.find((reference) => reference.path === '$.studentReference')!.targetIdentity.key).toBe(
      student.key,
    );
  });

  it('maps renamed reference fields onto the target identity (sections → courseOffering, classPeriods)', () => {
    const section = {
      sectionIdentifier: 'S-1',
      courseOfferingReference: { localCourseCode: 'ALG-1', schoolId: 255901001, schoolYear: 2022, sessionName: 'Fall' },
      classPeriods: [
        { classPeriodReference: { classPeriodName: 'P1', schoolId: 255901001 } },
        { classPeriodReference: { classPeriodName: 'P2', schoolId: 255901001 } },
      ],
    };
    const references = accessors('ed-fi', 'sections').referencesOf(section);
    const offering = {
      localCourseCode: 'ALG-1',
      schoolReference: { schoolId: 255901001 },
      sessionReference: { schoolId: 255901001, schoolYear: 2022, sessionName: 'Fall' },
      courseReference: { courseCode: 'ALG', educationOrganizationId: 255901 },
    };
    expect(references.find((r) => r.path === '$.courseOfferingReference')!.targetIdentity.key).toBe(
      accessors('ed-fi', 'courseOfferings').identityOf(offering).key,
    );
    expect(references.filter((r) => r.reference.target === 'ClassPeriod').map((r) => r.path)).toEqual([
      '$.classPeriods[0].classPeriodReference',
      '$.classPeriods[1].classPeriodReference',
    ]);
  });

  it('keys references to abstract targets by the abstract identity', () => {
    const association = accessors('ed-fi', 'studentEducationOrganizationAssociations').referencesOf({
      educationOrganizationReference: { educationOrganizationId: 255901001 },
      studentReference: { studentUniqueId: '1' },
    });
    const edOrg = association.find((reference) => reference.reference.targetIsAbstract)!;
    expect(edOrg.reference.target).toBe('EducationOrganization');
    expect(edOrg.targetIdentity.key).toBe(
      accessors('ed-fi', 'schools').superclassIdentityOf!({ schoolId: 255901001 }).key,
    );
  });

  it('reads TPDM references and `_ext.tpdm` references on core resources', () => {
    const school = accessors('ed-fi', 'schools').referencesOf({
      schoolId: 1,
      _ext: { tpdm: { postSecondaryInstitutionReference: { postSecondaryInstitutionId: 7 } } },
    });
    expect(school.map((reference) => [reference.path, reference.targetIdentity.values])).toEqual([
      ['$._ext.tpdm.postSecondaryInstitutionReference', [7]],
    ]);
    const rating = accessors('tpdm', 'evaluationRatings').referencesOf({
      sectionReference: {
        localCourseCode: 'C',
        schoolId: 2,
        schoolYear: 2022,
        sectionIdentifier: 'S',
        sessionName: 'Fall',
      },
    });
    expect(rating[0]!.targetIdentity.values).toEqual(['C', 2, 2022, 'Fall', 'S']);
  });
});

describe('descriptorsOf and securablesOf', () => {
  it('finds descriptor URIs at every depth with their descriptor type', () => {
    const descriptors = accessors('ed-fi', 'studentSchoolAssociations').descriptorsOf(enrollment);
    expect(descriptors.map((found) => [found.path, found.use.descriptor])).toEqual([
      [
        '$.alternativeGraduationPlans[0].alternativeGraduationPlanReference.graduationPlanTypeDescriptor',
        'GraduationPlanTypeDescriptor',
      ],
      ['$.educationPlans[0].educationPlanDescriptor', 'EducationPlanDescriptor'],
      ['$.entryGradeLevelDescriptor', 'GradeLevelDescriptor'],
      ['$.graduationPlanReference.graduationPlanTypeDescriptor', 'GraduationPlanTypeDescriptor'],
    ]);
    expect(descriptors[2]!.uri).toBe('uri://ed-fi.org/GradeLevelDescriptor#Ninth grade');
  });

  it('reads the authorization values', () => {
    expect(accessors('ed-fi', 'studentSchoolAssociations').securablesOf(enrollment)).toEqual({
      educationOrganizations: [{ name: 'SchoolId', path: '$.schoolReference.schoolId', value: 255901001 }],
      students: ['604822'],
      staffs: [],
      contacts: [],
      namespaces: [],
    });
    const assessment = accessors('ed-fi', 'studentAssessments').securablesOf({
      assessmentReference: { assessmentIdentifier: 'A', namespace: 'uri://ed-fi.org/Assessment' },
      studentReference: { studentUniqueId: '9' },
    });
    expect([assessment.namespaces, assessment.students]).toEqual([['uri://ed-fi.org/Assessment'], ['9']]);
    expect(
      accessors('ed-fi', 'courseTranscripts')
        .securablesOf({})
        .educationOrganizations.map((e) => e.name),
    ).toEqual(['EducationOrganizationId']);
  });

  it('compiles once per resource', () => {
    const resource = registry.getResource('ed-fi', 'sections')!;
    expect(registry.accessorsOf(resource)).toBe(registry.accessorsOf(resource));
  });
});
