// Every contract §7.1 message (and the body-level messages of §3.4, §3.5, §6.5) with its exact text and JSON path.
import { describe, expect, it } from 'vitest';
import type { ResourceModel } from '../../src/model/index.js';
import { validatorFor } from '../../src/model/validation/index.js';
import { minimalDocument } from '../../src/testing/index.js';
import { enrollment, failureOf, insertDocument, insertErrors, resource } from './support.js';

const DANGEROUS =
  "Rating contains a value that could be dangerous for downstream systems using this data. Try to avoid the use of special symbols like '<', '>' or '&' without surrounding spaces.";

function minimal(endpoint: string, namespace = 'ed-fi'): Record<string, unknown> {
  return minimalDocument(resource(endpoint, namespace));
}

function gradeLevelDescriptor(): Record<string, unknown> {
  return {
    namespace: 'uri://ed-fi.org/GradeLevelDescriptor',
    codeValue: 'Ninth grade',
    shortDescription: 'Ninth grade',
  };
}

function accountabilityRating(): Record<string, unknown> {
  return {
    educationOrganizationReference: { educationOrganizationId: 255901 },
    schoolYearTypeReference: { schoolYear: 2022 },
    ratingTitle: 'School Rating',
    rating: 'Recognized',
  };
}

describe('RequiredWithNonDefault', () => {
  it('reports a missing required string as "{Name} is required."', async () => {
    const { codeValue: _omitted, ...body } = gradeLevelDescriptor();
    expect(await insertErrors('gradeLevelDescriptors', body)).toEqual({ '$.codeValue': ['CodeValue is required.'] });
  });

  it('reports a null required string like a missing one', async () => {
    expect(await insertErrors('gradeLevelDescriptors', { ...gradeLevelDescriptor(), codeValue: null })).toEqual({
      '$.codeValue': ['CodeValue is required.'],
    });
  });

  it.each(['', '   '])(
    'reports the required string %j as "should not be left empty" and nothing else',
    async (value) => {
      expect(await insertErrors('gradeLevelDescriptors', { ...gradeLevelDescriptor(), codeValue: value })).toEqual({
        '$.codeValue': ['CodeValue is required and should not be left empty.'],
      });
    },
  );

  it('reports a missing required date as "{Name} is required." (Appendix D)', async () => {
    const { entryDate: _omitted, ...body } = enrollment();
    expect(await insertErrors('studentSchoolAssociations', body)).toEqual({
      '$.entryDate': ['EntryDate is required.'],
    });
  });

  it('reports an empty string for a required date as "The supplied value is invalid." (an optional one is absent)', async () => {
    expect(await insertErrors('studentSchoolAssociations', { ...enrollment(), entryDate: '' })).toEqual({
      '$.entryDate': ['The supplied value is invalid.'],
    });
    const document = await insertDocument('studentSchoolAssociations', { ...enrollment(), exitWithdrawDate: '' });
    expect(document).not.toHaveProperty('exitWithdrawDate');
  });

  it('treats a date parsing to 0001-01-01 as missing', async () => {
    expect(await insertErrors('studentSchoolAssociations', { ...enrollment(), entryDate: '1/1/0001' })).toEqual({
      '$.entryDate': ['EntryDate is required.'],
    });
  });

  it('reports a required identity integer of 0 as "{Name} value must be different than 0."', async () => {
    expect(await insertErrors('schools', { ...minimal('schools'), schoolId: 0 })).toEqual({
      '$.schoolId': ['SchoolId value must be different than 0.'],
    });
  });
});

describe('NoUnsuppliedRequiredMembersWithMeaningfulDefaults', () => {
  it('reports an unsupplied required boolean as "Value is required." and accepts false', async () => {
    const body = { schoolYear: 2022, schoolYearDescription: '2021-2022' };
    expect(await insertErrors('schoolYearTypes', body)).toEqual({ '$.currentSchoolYear': ['Value is required.'] });
    expect((await insertDocument('schoolYearTypes', { ...body, currentSchoolYear: false })).currentSchoolYear).toBe(
      false,
    );
  });

  it('reports an unsupplied required non-key integer as "Value is required." and accepts 0', async () => {
    const { totalInstructionalDays: _omitted, ...body } = minimal('academicWeeks');
    expect(await insertErrors('academicWeeks', body)).toEqual({ '$.totalInstructionalDays': ['Value is required.'] });
    expect((await insertDocument('academicWeeks', { ...body, totalInstructionalDays: 0 })).totalInstructionalDays).toBe(
      0,
    );
  });

  it('reports an unsupplied required decimal inside a collection item by its item path', async () => {
    const body = minimal('graduationPlans');
    const subject = { academicSubjectDescriptor: 'uri://ed-fi.org/AcademicSubjectDescriptor#Mathematics' };
    expect(await insertErrors('graduationPlans', { ...body, creditsBySubjects: [subject] })).toEqual({
      '$.creditsBySubjects[0].credits': ['Value is required.'],
    });
  });
});

describe('RequiredReference', () => {
  it('reports a missing required reference as "{MemberName} is required."', async () => {
    const { courseReference: _omitted, ...body } = minimal('courseOfferings');
    expect(await insertErrors('courseOfferings', body)).toEqual({
      '$.courseReference': ['CourseReference is required.'],
    });
  });
});

describe('FullyDefinedReference', () => {
  it('lists the missing properties of a partially specified required reference', async () => {
    expect(await insertErrors('studentSchoolAssociations', { ...enrollment(), schoolReference: {} })).toEqual({
      '$.schoolReference': ['SchoolReference is missing the following properties: SchoolId'],
    });
  });

  it('lists every missing property of an optional reference, comma-separated, in model order', async () => {
    const body = { ...enrollment(), calendarReference: { calendarCode: 'IEP' } };
    expect(await insertErrors('studentSchoolAssociations', body)).toEqual({
      '$.calendarReference': ['CalendarReference is missing the following properties: SchoolId, SchoolYear'],
    });
  });

  it('counts default values (0, "") in a reference as missing', async () => {
    const body = {
      ...enrollment(),
      graduationPlanReference: { educationOrganizationId: 0, graduationPlanTypeDescriptor: '' },
    };
    expect(await insertErrors('studentSchoolAssociations', body)).toEqual({
      '$.graduationPlanReference': [
        'GraduationPlanReference is missing the following properties: EducationOrganizationId, GraduationPlanTypeDescriptor, GraduationSchoolYear',
      ],
    });
  });
});

describe('FullyDefinedReference (partial references report nothing else)', () => {
  const chartOfAccounts = (balanceSheetDimensionReference: object) => ({
    accountIdentifier: 'A',
    educationOrganizationReference: { educationOrganizationId: 255901 },
    fiscalYear: 2022,
    accountTypeDescriptor: 'uri://ed-fi.org/AccountTypeDescriptor#Revenue',
    balanceSheetDimensionReference,
  });

  it.each([
    [{ fiscalYear: 2019 }, 'Code'],
    [{ code: 'x'.repeat(40) }, 'FiscalYear'],
  ])(
    'reports only the missing properties of %j: no range, length or unification errors',
    async (reference, missing) => {
      expect(await insertErrors('chartOfAccounts', chartOfAccounts(reference))).toEqual({
        '$.balanceSheetDimensionReference': [
          `BalanceSheetDimensionReference is missing the following properties: ${missing}`,
        ],
      });
    },
  );
});

describe('RequiredCollection', () => {
  it.each([[[]], [undefined]])('reports a required collection given as %j', async (classPeriods) => {
    const body = { ...minimal('bellSchedules'), classPeriods };
    expect(await insertErrors('bellSchedules', body)).toEqual({
      '$.classPeriods': ['BellScheduleClassPeriods must have at least one item.'],
    });
  });
});

describe('NoDuplicateMembers', () => {
  const score = (method: string) => ({
    assessmentReportingMethodDescriptor: `uri://ed-fi.org/AssessmentReportingMethodDescriptor#${method}`,
  });

  it('reports the ordinal of the duplicate and the collection class name', async () => {
    const body = { ...minimal('assessments'), scores: [score('Raw score'), score('Raw score')] };
    expect(await insertErrors('assessments', body)).toEqual({
      '$.scores': [
        'The 2nd item of the AssessmentScores has the same identifying values as another item earlier in the list.',
      ],
    });
  });

  it('compares descriptor identity members case-insensitively and counts ordinals from 1', async () => {
    const body = { ...minimal('assessments'), scores: [score('Raw score'), score('Scale score'), score('RAW SCORE')] };
    expect(await insertErrors('assessments', body)).toEqual({
      '$.scores': [
        'The 3rd item of the AssessmentScores has the same identifying values as another item earlier in the list.',
      ],
    });
  });

  it('reports duplicates of a nested collection under its concrete path, named after the inherited ODS entity', async () => {
    const address = {
      addressTypeDescriptor: 'uri://ed-fi.org/AddressTypeDescriptor#Physical',
      city: 'Austin',
      postalCode: '78701',
      stateAbbreviationDescriptor: 'uri://ed-fi.org/StateAbbreviationDescriptor#TX',
      streetNumberName: '1 Main St',
      periods: [{ beginDate: '2020-01-01' }, { beginDate: '2020-01-01' }],
    };
    expect(await insertErrors('schools', { ...minimal('schools'), addresses: [address] })).toEqual({
      '$.addresses[0].periods': [
        'The 2nd item of the EducationOrganizationAddressPeriods has the same identifying values as another item earlier in the list.',
      ],
    });
  });
});

describe('StringLength', () => {
  it('reports "{Name} must be at most {max} characters in length." for strings without a model minimum', async () => {
    expect(
      await insertErrors('gradeLevelDescriptors', { ...gradeLevelDescriptor(), codeValue: 'x'.repeat(51) }),
    ).toEqual({
      '$.codeValue': ['CodeValue must be at most 50 characters in length.'],
    });
  });

  it('reports "{Name} must be between {min} and {max} characters in length." for strings with a model minimum', async () => {
    expect(await insertErrors('assessments', { ...minimal('assessments'), namespace: 'uri' })).toEqual({
      '$.namespace': ['Namespace must be between 5 and 255 characters in length.'],
    });
  });
});

describe('NoWhitespace', () => {
  it.each([' School Rating', 'School Rating '])('rejects the identity string %j', async (ratingTitle) => {
    expect(await insertErrors('accountabilityRatings', { ...accountabilityRating(), ratingTitle })).toEqual({
      '$.ratingTitle': ['RatingTitle cannot contain leading or trailing spaces.'],
    });
  });

  it('applies to reference fields and collection item identities, not to other strings', async () => {
    const body = {
      ...enrollment(),
      studentReference: { studentUniqueId: '604822 ' },
      educationPlans: [{ educationPlanDescriptor: ' uri://ed-fi.org/EducationPlanDescriptor#Career Pathways' }],
    };
    expect(await insertErrors('studentSchoolAssociations', body)).toEqual({
      '$.studentReference.studentUniqueId': ['StudentUniqueId cannot contain leading or trailing spaces.'],
      '$.educationPlans[0].educationPlanDescriptor': [
        'EducationPlanDescriptor cannot contain leading or trailing spaces.',
        "EducationPlanDescriptor value ' uri://ed-fi.org/EducationPlanDescriptor#Career Pathways' does not exist.",
      ],
    });
    expect(
      (await insertDocument('accountabilityRatings', { ...accountabilityRating(), rating: ' Recognized ' })).rating,
    ).toBe(' Recognized ');
  });
});

describe('NoDangerousText', () => {
  it.each(['<script>alert(1)</script>', 'a<b', 'x</p>', '<!-- c -->', '<?xml', '&#60;'])(
    'rejects %j',
    async (rating) => {
      expect(await insertErrors('accountabilityRatings', { ...accountabilityRating(), rating })).toEqual({
        '$.rating': [DANGEROUS],
      });
    },
  );

  it.each(['a < b', 'a > b', 'R&D', '5<6', 'A & B'])('accepts %j', async (rating) => {
    expect((await insertDocument('accountabilityRatings', { ...accountabilityRating(), rating })).rating).toBe(rating);
  });
});

describe('Range', () => {
  it('reports "{Name} must be between {min} and {max}." for decimals with both bounds', async () => {
    const body = { ...minimal('staffs'), yearsOfPriorTeachingExperience: 1000 };
    expect(await insertErrors('staffs', body)).toEqual({
      '$.yearsOfPriorTeachingExperience': ['YearsOfPriorTeachingExperience must be between -999.99 and 999.99.'],
    });
  });

  it('reports TPDM decimal bounds inside a collection item', async () => {
    const body = minimal('evaluationRatings', 'tpdm');
    const result = {
      rating: -1000,
      ratingResultTitle: 'Overall',
      resultDatatypeTypeDescriptor: 'uri://ed-fi.org/ResultDatatypeTypeDescriptor#Decimal',
    };
    expect(await insertErrors('evaluationRatings', { ...body, results: [result] }, 'tpdm')).toEqual({
      '$.results[0].rating': ['Rating must be between -999.999 and 999.999.'],
    });
  });

  it('reports "{Name} must be greater than or equal to {min}." for a minimum only', async () => {
    expect(await insertErrors('courses', { ...minimal('courses'), maxCompletionsForCredit: 0 })).toEqual({
      '$.maxCompletionsForCredit': ['MaxCompletionsForCredit must be greater than or equal to 1.'],
    });
  });

  it('reports "{Name} must be less than or equal to {max}." for a maximum only', () => {
    // No DS 5.2 / TPDM property has only a maximum, so a one-property resource stands in.
    const capped: ResourceModel = {
      ...resource('schoolYearTypes'),
      resourceName: 'Capped',
      equalityConstraints: [],
      shape: { type: 'object', properties: { level: { type: 'integer', format: 'int32', maximum: 10 } } },
    };
    expect(failureOf(validatorFor(capped).validateInsert({ level: 11 })).validationErrors).toEqual({
      '$.level': ['Level must be less than or equal to 10.'],
    });
  });
});

describe('DescriptorExists', () => {
  it("reports a descriptor value without '#' under the property's path, naming the descriptor type", async () => {
    expect(await insertErrors('students', { ...minimal('students'), birthCountryDescriptor: '00' })).toEqual({
      '$.birthCountryDescriptor': [
        "CountryDescriptor value '00' is not a valid value for use as a descriptor (a '#' is expected to delineate the namespace and code value portions).",
      ],
    });
  });

  it('reports an unknown descriptor value when a lookup is supplied', async () => {
    const termDescriptor = 'uri://ed-fi.org/TermDescriptor#Spring Semester Missing';
    expect(await insertErrors('sessions', { ...minimal('sessions'), termDescriptor })).toEqual({
      '$.termDescriptor': [`TermDescriptor value '${termDescriptor}' does not exist.`],
    });
  });

  it('reports an unknown role-named descriptor by its base descriptor type (Appendix D)', async () => {
    const body = { ...enrollment(), entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Grade 42' };
    expect(await insertErrors('studentSchoolAssociations', body)).toEqual({
      '$.entryGradeLevelDescriptor': [
        "GradeLevelDescriptor value 'uri://ed-fi.org/GradeLevelDescriptor#Grade 42' does not exist.",
      ],
    });
  });

  it('checks only the shape when no lookup is supplied', () => {
    const body = { ...enrollment(), entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Grade 42' };
    expect(validatorFor(resource('studentSchoolAssociations')).validateInsert(body).ok).toBe(true);
  });
});

describe('Key unification', () => {
  it('reports conflicting unified values under every participating path (Appendix D)', async () => {
    const body = { ...enrollment(), calendarReference: { calendarCode: 'IEP', schoolId: 255901044, schoolYear: 2022 } };
    const message =
      "All values supplied for 'schoolId' must match. Review all references and align the following conflicting values: '255901044', '255901001'";
    expect(await insertErrors('studentSchoolAssociations', body)).toEqual({
      '$.calendarReference.schoolId': [message],
      '$.schoolReference.schoolId': [message],
    });
  });

  it('lists one value per source, repeats included', async () => {
    const dimension = (fiscalYear: number) => ({ code: 'C', fiscalYear });
    const body = {
      accountIdentifier: 'A',
      educationOrganizationReference: { educationOrganizationId: 255901 },
      fiscalYear: 2022,
      accountTypeDescriptor: 'uri://ed-fi.org/AccountTypeDescriptor#Revenue',
      balanceSheetDimensionReference: dimension(2021),
      functionDimensionReference: dimension(2022),
    };
    const message =
      "All values supplied for 'fiscalYear' must match. Review all references and align the following conflicting values: '2021', '2022', '2022'";
    expect(await insertErrors('chartOfAccounts', body)).toEqual({
      '$.balanceSheetDimensionReference.fiscalYear': [message],
      '$.fiscalYear': [message],
      '$.functionDimensionReference.fiscalYear': [message],
    });
  });

  it('says "including those higher up" where the conflicting value sits at an enclosing level', async () => {
    const body = minimalDocument(resource('studentAssessments'));
    const assessment = body.assessmentReference as { assessmentIdentifier: string; namespace: string };
    const item = {
      assessmentItemReference: { ...assessment, assessmentIdentifier: 'OTHER', identificationCode: 'Q1' },
      assessmentItemResultDescriptor: 'uri://ed-fi.org/AssessmentItemResultDescriptor#Correct',
    };
    const values = `'${assessment.assessmentIdentifier}', 'OTHER'`;
    expect(await insertErrors('studentAssessments', { ...body, items: [item] })).toEqual({
      '$.assessmentReference.assessmentIdentifier': [
        `All values supplied for 'assessmentIdentifier' must match. Review all references and align the following conflicting values: ${values}`,
      ],
      '$.items[0].assessmentItemReference.assessmentIdentifier': [
        `All values supplied for 'assessmentIdentifier' must match. Review all references (including those higher up in the resource's data) and align the following conflicting values: ${values}`,
      ],
    });
  });

  it('accepts equal unified values, and a unified path that is absent', async () => {
    const body = {
      ...enrollment(),
      calendarReference: { calendarCode: 'IEP', schoolId: '255901001', schoolYear: 2022 },
    };
    expect((await insertDocument('studentSchoolAssociations', body)).calendarReference).toEqual({
      calendarCode: 'IEP',
      schoolId: 255901001,
      schoolYear: 2022,
    });
  });
});

describe('Date converter', () => {
  it.each(['2021-08-23T00:00:00', '2021-08-23 10:00', '8/23/2021 10:00 PM', '2021-02-30', 'next monday'])(
    'rejects %j with "String was not recognized as a valid date."',
    async (entryDate) => {
      expect(await insertErrors('studentSchoolAssociations', { ...enrollment(), entryDate })).toEqual({
        '$.entryDate': ['String was not recognized as a valid date.'],
      });
    },
  );
});

describe('aggregation', () => {
  it('reports every failure of the document in one result', async () => {
    const body = {
      studentReference: { studentUniqueId: 'x'.repeat(33) },
      schoolReference: { schoolId: 255901001 },
      calendarReference: { calendarCode: 'IEP', schoolId: 1, schoolYear: 2022 },
      entryGradeLevelDescriptor: 'Ninth grade',
      fullTimeEquivalency: 10,
    };
    expect(Object.keys(await insertErrors('studentSchoolAssociations', body)).sort()).toEqual([
      '$.calendarReference.schoolId',
      '$.entryDate',
      '$.entryGradeLevelDescriptor',
      '$.fullTimeEquivalency',
      '$.schoolReference.schoolId',
      '$.studentReference.studentUniqueId',
    ]);
  });
});

describe('request body (contract §3.4, §3.5, §6.5)', () => {
  const validator = () => validatorFor(resource('studentSchoolAssociations'));

  it.each(['id', 'Id', 'ID'])('rejects a client-assigned %s on POST before attribute validation', (key) => {
    expect(failureOf(validator().validateInsert({ [key]: '0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9e' }))).toEqual({
      kind: 'client-assigned-id',
      errors: [
        "Resource identifiers cannot be assigned by the client. The 'id' property should not be included in the request body.",
      ],
    });
  });

  it.each([undefined, null])('rejects an empty POST body (%j) with `errors`', (body) => {
    expect(failureOf(validator().validateInsert(body))).toEqual({
      kind: 'empty-body',
      errors: ['A non-empty request body is required.'],
    });
  });

  it('rejects an empty PUT body with `validationErrors` at "$"', () => {
    expect(failureOf(validator().validateUpdate(null, '9e1d5c4b3a2f4e6d8c7b6a5f4e3d2c1b'))).toEqual({
      kind: 'empty-body',
      validationErrors: { $: ['A non-empty request body is required.'] },
    });
  });

  it.each([[[enrollment()]], ['text'], [42], [true]])('rejects a body that is not a JSON object: %j', (body) => {
    const failure = failureOf(validator().validateInsert(body));
    expect(failure.kind).toBe('not-an-object');
    expect(Object.keys(failure.validationErrors ?? {})).toEqual(['$']);
  });
});
