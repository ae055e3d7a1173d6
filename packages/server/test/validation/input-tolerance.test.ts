// Input tolerance (contract §3.1, §3.12, §6.6): casing, unknown and metadata members, nulls, lenient scalars, `id`,
// and the canonical document the validator hands on.
import { describe, expect, it } from 'vitest';
import { validatorFor } from '../../src/model/validation/index.js';
import { enrollment, failureOf, insertDocument, insertErrors, resource } from './support.js';

const ssa = () => validatorFor(resource('studentSchoolAssociations'));

describe('property names and ignored members', () => {
  it('matches property names case-insensitively at every level and returns the model casing', async () => {
    const document = await insertDocument('studentSchoolAssociations', {
      StudentReference: { STUDENTUNIQUEID: '604822' },
      schoolreference: { SchoolId: 255901001 },
      EntryDate: '2021-08-23',
      entryGRADELevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
    });
    expect(document).toEqual({
      entryDate: '2021-08-23',
      entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
      schoolReference: { schoolId: 255901001 },
      studentReference: { studentUniqueId: '604822' },
    });
  });

  it('drops unknown members, link, _etag and _lastModifiedDate', async () => {
    const document = await insertDocument('studentSchoolAssociations', {
      ...enrollment(),
      schoolReference: { schoolId: 255901001, link: { rel: 'School', href: '/ed-fi/schools/abc' } },
      favouriteColour: 'blue',
      _etag: '5250093105232954695',
      _lastModifiedDate: '2024-01-13T02:11:20.5566791Z',
    });
    expect(document).toEqual(await insertDocument('studentSchoolAssociations', enrollment()));
  });

  it('keeps the last of two members differing only in case', async () => {
    const document = await insertDocument('studentSchoolAssociations', { ...enrollment(), EntryDate: '2021-09-01' });
    expect(document.entryDate).toBe('2021-09-01');
  });

  it('reads _ext members case-insensitively', async () => {
    const school = {
      schoolId: 255901001,
      nameOfInstitution: 'Grand Bend High School',
      educationOrganizationCategories: [
        { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
      ],
      gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' }],
      _EXT: { TPDM: { PostSecondaryInstitutionReference: { postSecondaryInstitutionId: '6000203' } } },
    };
    expect((await insertDocument('schools', school))._ext).toEqual({
      tpdm: { postSecondaryInstitutionReference: { postSecondaryInstitutionId: 6000203 } },
    });
  });

  it('treats null like an absent member and skips null collection items', async () => {
    const document = await insertDocument('studentSchoolAssociations', {
      ...enrollment(),
      exitWithdrawDate: null,
      calendarReference: null,
      educationPlans: [null, { educationPlanDescriptor: 'uri://ed-fi.org/EducationPlanDescriptor#Career Pathways' }],
    });
    expect(document).not.toHaveProperty('exitWithdrawDate');
    expect(document).not.toHaveProperty('calendarReference');
    expect(document.educationPlans).toEqual([
      { educationPlanDescriptor: 'uri://ed-fi.org/EducationPlanDescriptor#Career Pathways' },
    ]);
  });

  it('treats a blank optional descriptor as absent', async () => {
    expect(
      await insertDocument('studentSchoolAssociations', { ...enrollment(), entryTypeDescriptor: '' }),
    ).not.toHaveProperty('entryTypeDescriptor');
  });
});

describe('scalar coercion', () => {
  it('accepts numbers as JSON strings, with surrounding spaces and signs', async () => {
    const document = await insertDocument('studentSchoolAssociations', {
      ...enrollment(),
      schoolReference: { schoolId: ' 255901001 ' },
      classOfSchoolYearTypeReference: { schoolYear: '+2025' },
      fullTimeEquivalency: '0.75',
    });
    expect(document.schoolReference).toEqual({ schoolId: 255901001 });
    expect(document.classOfSchoolYearTypeReference).toEqual({ schoolYear: 2025 });
    expect(document.fullTimeEquivalency).toBe(0.75);
  });

  it('treats an empty string as absent for numbers and booleans', async () => {
    const document = await insertDocument('studentSchoolAssociations', {
      ...enrollment(),
      fullTimeEquivalency: '',
      primarySchool: '',
    });
    expect(document).not.toHaveProperty('fullTimeEquivalency');
    expect(document).not.toHaveProperty('primarySchool');
  });

  it.each([
    ['true', true],
    ['FALSE', false],
    [' True ', true],
    [1, true],
    [0, false],
    [2.5, true],
    [false, false],
  ])('reads the boolean %j as %j', async (input, expected) => {
    expect(
      (await insertDocument('studentSchoolAssociations', { ...enrollment(), primarySchool: input })).primarySchool,
    ).toBe(expected);
  });

  it('turns numbers and booleans sent for strings into strings', async () => {
    const document = await insertDocument('studentSchoolAssociations', {
      ...enrollment(),
      studentReference: { studentUniqueId: 604822 },
    });
    expect(document.studentReference).toEqual({ studentUniqueId: '604822' });
    expect(
      (
        await insertDocument('accountabilityRatings', {
          educationOrganizationReference: { educationOrganizationId: 255901 },
          schoolYearTypeReference: { schoolYear: 2022 },
          ratingTitle: true,
          rating: 'Recognized',
        })
      ).ratingTitle,
    ).toBe('true');
  });

  it.each([
    ['1.00005', 1.0001],
    ['0.123449', 0.1234],
    [0.12345, 0.1235],
    [2, 2],
  ])('rounds the decimal %j to the column scale (half away from zero): %j', async (fullTimeEquivalency, expected) => {
    const document = await insertDocument('studentSchoolAssociations', { ...enrollment(), fullTimeEquivalency });
    expect(document.fullTimeEquivalency).toBe(expected);
  });

  it.each([
    ['8/3/2021', '2021-08-03'],
    ['2021-8-3', '2021-08-03'],
    [' 2021-08-23 ', '2021-08-23'],
    ['2024-02-29', '2024-02-29'],
  ])('reads the date %j as %j', async (entryDate, expected) => {
    expect((await insertDocument('studentSchoolAssociations', { ...enrollment(), entryDate })).entryDate).toBe(
      expected,
    );
  });

  const bellSchedule = () => ({
    bellScheduleName: 'Normal Schedule',
    schoolReference: { schoolId: 255901001 },
    classPeriods: [{ classPeriodReference: { classPeriodName: '01 - Traditional', schoolId: 255901001 } }],
  });

  it.each([
    ['07:57', '07:57:00'],
    ['07:57:32', '07:57:32'],
    ['07:57:32Z', '07:57:32'],
    ['07:57:32+05:00', '02:57:32'],
    ['07:57:32-05:00', '12:57:32'],
    ['03:57:32+05:00', '22:57:32'],
    ['20:57:32-05:00', '01:57:32'],
  ])('reads the time %j as UTC %j', async (startTime, expected) => {
    expect((await insertDocument('bellSchedules', { ...bellSchedule(), startTime })).startTime).toBe(expected);
  });

  it.each([
    ['2021-09-01T10:15:00', '2021-09-01T10:15:00Z'],
    ['2021-09-01T10:15:00.1234567Z', '2021-09-01T10:15:00.1234567Z'],
    ['2021-09-01T10:15:00.500+02:00', '2021-09-01T08:15:00.5Z'],
    ['2021-09-01T01:00:00+05:30', '2021-08-31T19:30:00Z'],
    ['2021-09-01', '2021-09-01T00:00:00Z'],
    ['2021/09/28', '2021-09-28T00:00:00Z'],
    ['2021-09-28 2:15:30 PM', '2021-09-28T14:15:30Z'],
    ['2021-09-28 12:05 AM', '2021-09-28T00:05:00Z'],
    ['9/28/2021 14:15', '2021-09-28T14:15:00Z'],
  ])('reads the date-time %j as UTC %j (what Newtonsoft parses)', async (administrationDate, expected) => {
    const body = {
      assessmentReference: { assessmentIdentifier: 'ACT', namespace: 'uri://ed-fi.org/Assessment' },
      studentReference: { studentUniqueId: '604822' },
      studentAssessmentIdentifier: 'SA-1',
      administrationDate,
    };
    expect((await insertDocument('studentAssessments', body)).administrationDate).toBe(expected);
  });
});

describe('conversion failures (reported before attribute validation, Newtonsoft wording without line/position)', () => {
  it.each([
    [
      { schoolReference: { schoolId: 'abc' } },
      '$.schoolReference.schoolId',
      "Input string 'abc' is not a valid System.Int64. Path 'schoolReference.schoolId'.",
    ],
    [
      { schoolReference: { schoolId: '99999999999999999999' } },
      '$.schoolReference.schoolId',
      "Error converting value 99999999999999999999 to type 'System.Int64'. Path 'schoolReference.schoolId'.",
    ],
    [
      JSON.parse('{ "schoolReference": { "schoolId": 99999999999999999999 } }') as object,
      '$.schoolReference.schoolId',
      "Error converting value 100000000000000000000 to type 'System.Int64'. Path 'schoolReference.schoolId'.",
    ],
    [
      { classOfSchoolYearTypeReference: { schoolYear: 'abc' } },
      '$.classOfSchoolYearTypeReference.schoolYear',
      "Could not convert string to integer: abc. Path 'classOfSchoolYearTypeReference.schoolYear'.",
    ],
    [
      { classOfSchoolYearTypeReference: { schoolYear: 2021.5 } },
      '$.classOfSchoolYearTypeReference.schoolYear',
      "Input string '2021.5' is not a valid integer. Path 'classOfSchoolYearTypeReference.schoolYear'.",
    ],
    [
      { classOfSchoolYearTypeReference: { schoolYear: 3000000000 } },
      '$.classOfSchoolYearTypeReference.schoolYear',
      "JSON integer 3000000000 is too large or small for an Int32. Path 'classOfSchoolYearTypeReference.schoolYear'.",
    ],
    [{ primarySchool: 'yes' }, '$.primarySchool', "Could not convert string to boolean: yes. Path 'primarySchool'."],
    [
      { fullTimeEquivalency: 'half' },
      '$.fullTimeEquivalency',
      "Could not convert string to decimal: half. Path 'fullTimeEquivalency'.",
    ],
    [
      { entryGradeLevelDescriptor: { uri: 'x' } },
      '$.entryGradeLevelDescriptor',
      "Error reading string. Unexpected token: StartObject. Path 'entryGradeLevelDescriptor'.",
    ],
    [
      { schoolReference: 255901001 },
      '$.schoolReference',
      "Error converting value 255901001 to type 'SchoolReference'. Path 'schoolReference'.",
    ],
    [
      { schoolReference: [255901001] },
      '$.schoolReference',
      'Cannot deserialize the current JSON array (e.g. [1,2,3]) into type \'SchoolReference\' because the type requires a JSON object (e.g. {"name":"value"}) to deserialize correctly. Path \'schoolReference\'.',
    ],
    [
      { educationPlans: {} },
      '$.educationPlans',
      'Cannot deserialize the current JSON object (e.g. {"name":"value"}) into type \'EducationPlans\' because the type requires a JSON array (e.g. [1,2,3]) to deserialize correctly. Path \'educationPlans\'.',
    ],
    [
      { educationPlans: [{ educationPlanDescriptor: [] }] },
      '$.educationPlans[0].educationPlanDescriptor',
      "Error reading string. Unexpected token: StartArray. Path 'educationPlans[0].educationPlanDescriptor'.",
    ],
  ])('reports %j', async (change, path, message) => {
    expect(await insertErrors('studentSchoolAssociations', { ...enrollment(), ...change })).toEqual({
      [path]: [message],
    });
  });

  it('reports only conversion failures when there are any', async () => {
    const errors = await insertErrors('studentSchoolAssociations', {
      schoolReference: { schoolId: 'abc' },
      primarySchool: 'maybe',
    });
    expect(Object.keys(errors)).toEqual(['$.primarySchool', '$.schoolReference.schoolId']);
  });

  it('reports an invalid time with the TimeSpan wording', async () => {
    const body = {
      bellScheduleName: 'Normal Schedule',
      schoolReference: { schoolId: 255901001 },
      classPeriods: [{ classPeriodReference: { classPeriodName: '01 - Traditional', schoolId: 255901001 } }],
      startTime: '25:00',
    };
    expect(await insertErrors('bellSchedules', body)).toEqual({
      '$.startTime': ["String '25:00' was not recognized as a valid TimeSpan. Path 'startTime'."],
    });
  });

  it('reports an invalid date-time with the DateTime wording', async () => {
    const body = {
      assessmentReference: { assessmentIdentifier: 'ACT', namespace: 'uri://ed-fi.org/Assessment' },
      studentReference: { studentUniqueId: '604822' },
      studentAssessmentIdentifier: 'SA-1',
      administrationDate: 'yesterday',
    };
    expect(await insertErrors('studentAssessments', body)).toEqual({
      '$.administrationDate': ["Could not convert string to DateTime: yesterday. Path 'administrationDate'."],
    });
    expect(await insertErrors('studentAssessments', { ...body, administrationDate: '2021-09-28 13:15 PM' })).toEqual({
      '$.administrationDate': ["Could not convert string to DateTime: 2021-09-28 13:15 PM. Path 'administrationDate'."],
    });
  });
});

describe('id handling', () => {
  it('ignores an id in a PUT body and puts the route id first in the document', () => {
    const result = ssa().validateUpdate(
      { ...enrollment(), id: 'ffffffffffffffffffffffffffffffff' },
      '9e1d5c4b3a2f4e6d8c7b6a5f4e3d2c1b',
    );
    expect(result.ok && Object.entries(result.document)[0]).toEqual(['id', '9e1d5c4b3a2f4e6d8c7b6a5f4e3d2c1b']);
  });

  it('accepts a null id on POST (nothing was assigned)', () => {
    expect(ssa().validateInsert({ ...enrollment(), id: null }).ok).toBe(true);
  });

  it('reports conversion failures before a client-assigned id', () => {
    expect(failureOf(ssa().validateInsert({ id: 'abc', schoolReference: { schoolId: 'x' } })).kind).toBe(
      'invalid-data',
    );
  });
});
