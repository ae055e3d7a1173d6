// Query-by-example filters: names case-insensitive, values bound to the field's type, default values and unknown or
// paging names ignored, binding failures reported per field.
import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../../src/api/index.js';
import { QueryBindingErrors } from '../../src/api/query-binding.js';
import { bindQueryFilters } from '../../src/api/query-filters.js';
import { getModelRegistry } from '../../src/model/index.js';

const registry = getModelRegistry();
const studentSchoolAssociations = registry.getResource('ed-fi', 'studentSchoolAssociations')!;

function filtersFor(query: Record<string, string>, endpoint = 'studentSchoolAssociations') {
  const errors = new QueryBindingErrors();
  const filters = bindQueryFilters(registry.getResource('ed-fi', endpoint)!, new Map(Object.entries(query)), errors);
  errors.throwIfAny();
  return filters;
}

function bindingErrorsFor(query: Record<string, string>) {
  try {
    filtersFor(query);
  } catch (error) {
    if (error instanceof ApiProblem) return error.validationErrors;
    throw error;
  }
  throw new Error('Expected binding errors');
}

describe('query filters', () => {
  it('bind every kind of field to its type', () => {
    expect(
      filtersFor({
        schoolid: '255901001',
        entrygradeleveldescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
        primaryschool: 'True',
        fulltimeequivalency: '0.75',
        entrydate: '8/23/2021',
        studentuniqueid: '604822',
        id: '0E4B1B5F-2C4F-4F0A-8A7D-2D4F6C1B3A9E',
      }),
    ).toEqual([
      { field: 'schoolId', value: 255901001 },
      { field: 'entryGradeLevelDescriptor', value: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' },
      { field: 'primarySchool', value: true },
      { field: 'fullTimeEquivalency', value: 0.75 },
      { field: 'entryDate', value: '2021-08-23' },
      { field: 'studentUniqueId', value: '604822' },
      { field: 'id', value: '0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9e' },
    ]);
  });

  it('ignore default values, empty values, unknown names, paging names and the correlation id', () => {
    expect(
      filtersFor({
        schoolid: '0',
        primaryschool: 'false',
        fulltimeequivalency: '0.0',
        entrydate: '0001-01-01',
        id: '00000000-0000-0000-0000-000000000000',
        studentuniqueid: '',
        nosuchfield: 'x',
        limit: '5',
        correlationid: 'abc',
      }),
    ).toEqual([]);
  });

  it('ignore a default time', () => {
    expect(filtersFor({ starttime: '00:00' }, 'bellSchedules')).toEqual([]);
    expect(filtersFor({ starttime: '08:30' }, 'bellSchedules')).toEqual([{ field: 'startTime', value: '08:30:00' }]);
  });

  it('report values that do not bind, keyed by the model name of the field', () => {
    expect(bindingErrorsFor({ schoolid: 'abc', primaryschool: '1', entrydate: '2021-13-01', id: 'invalid' })).toEqual({
      '$.schoolId': ["The value 'abc' is not valid for SchoolId."],
      '$.primarySchool': ["The value '1' is not valid for PrimarySchool."],
      '$.entryDate': ["The value '2021-13-01' is not valid for EntryDate."],
      '$.id': ["The value 'invalid' is not valid for Id."],
    });
  });

  it('cover every query field of the resource', () => {
    const query = Object.fromEntries(
      Object.keys(studentSchoolAssociations.queryFields).map((name) => [name.toLowerCase(), '']),
    );
    expect(filtersFor(query)).toEqual([]);
  });
});
