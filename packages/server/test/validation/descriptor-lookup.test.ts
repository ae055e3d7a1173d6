// Descriptor existence through an asynchronous lookup: asked once per document with all of its URIs, and answering
// later (as a database would) changes nothing in the messages, their paths or their order.
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { validatorFor, type DescriptorLookup, type DescriptorUri } from '../../src/model/validation/index.js';
import { defaultDescriptors, failureOf, resource } from './support.js';

/** Answers like `defaultDescriptors`, but only after a timer, and records every batch it was asked. */
function delayedLookup(): DescriptorLookup & { readonly batches: (readonly DescriptorUri[])[] } {
  const batches: (readonly DescriptorUri[])[] = [];
  return {
    batches,
    exist: async (uris) => {
      batches.push(uris);
      await delay(5);
      return defaultDescriptors.exist(uris);
    },
  };
}

function school(): Record<string, unknown> {
  return {
    schoolId: 255901999,
    nameOfInstitution: '',
    schoolTypeDescriptor: 'uri://ed-fi.org/SchoolTypeDescriptor#Imaginary',
    charterStatusDescriptor: 'Charter',
    educationOrganizationCategories: [
      { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
    ],
    gradeLevels: [
      { gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' },
      { gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Grade 42' },
      { gradeLevelDescriptor: 'URI://ED-FI.ORG/GRADELEVELDESCRIPTOR#TENTH GRADE' },
    ],
    addresses: [
      {
        addressTypeDescriptor: 'uri://ed-fi.org/AddressTypeDescriptor#Physical',
        stateAbbreviationDescriptor: 'uri://ed-fi.org/StateAbbreviationDescriptor#ZZ',
        city: 'Austin',
        postalCode: '78701',
        streetNumberName: '1 Main St',
      },
    ],
  };
}

/** What the synchronous, per-URI check answered for `school()` before the lookup became asynchronous. */
const schoolFailureBody =
  '{"kind":"invalid-data","validationErrors":{' +
  '"$.charterStatusDescriptor":["CharterStatusDescriptor value \'Charter\' is not a valid value for use as a descriptor (a \'#\' is expected to delineate the namespace and code value portions)."],' +
  '"$.nameOfInstitution":["NameOfInstitution is required and should not be left empty."],' +
  '"$.addresses[0].stateAbbreviationDescriptor":["StateAbbreviationDescriptor value \'uri://ed-fi.org/StateAbbreviationDescriptor#ZZ\' does not exist."],' +
  '"$.gradeLevels[1].gradeLevelDescriptor":["GradeLevelDescriptor value \'uri://ed-fi.org/GradeLevelDescriptor#Grade 42\' does not exist."],' +
  '"$.schoolTypeDescriptor":["SchoolTypeDescriptor value \'uri://ed-fi.org/SchoolTypeDescriptor#Imaginary\' does not exist."]}}';

describe('descriptor existence through an asynchronous lookup', () => {
  const schools = () => validatorFor(resource('schools'));

  it('reports the same messages, at the same paths, in the same order as the synchronous check did', async () => {
    const failure = failureOf(await schools().validateInsertWithDescriptors(school(), delayedLookup()));
    expect(JSON.stringify(failure)).toBe(schoolFailureBody);
  });

  it('asks once per document, with every well-formed URI in the order the check visits them', async () => {
    const lookup = delayedLookup();
    await schools().validateInsertWithDescriptors(school(), lookup);
    expect(lookup.batches).toHaveLength(1);
    expect(lookup.batches[0]?.map(({ namespace, descriptor, uri }) => `${namespace} ${descriptor} ${uri}`)).toEqual([
      'ed-fi AddressTypeDescriptor uri://ed-fi.org/AddressTypeDescriptor#Physical',
      'ed-fi StateAbbreviationDescriptor uri://ed-fi.org/StateAbbreviationDescriptor#ZZ',
      'ed-fi EducationOrganizationCategoryDescriptor uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School',
      'ed-fi GradeLevelDescriptor uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
      'ed-fi GradeLevelDescriptor uri://ed-fi.org/GradeLevelDescriptor#Grade 42',
      'ed-fi GradeLevelDescriptor URI://ED-FI.ORG/GRADELEVELDESCRIPTOR#TENTH GRADE',
      'ed-fi SchoolTypeDescriptor uri://ed-fi.org/SchoolTypeDescriptor#Imaginary',
    ]);
  });

  it('does not ask for a document without descriptor values', async () => {
    const lookup = delayedLookup();
    const student = { studentUniqueId: '604822', firstName: 'Ana', lastSurname: 'Diaz', birthDate: '2010-01-02' };
    const result = await validatorFor(resource('students')).validateInsertWithDescriptors(student, lookup);
    expect(result.ok).toBe(true);
    expect(lookup.batches).toEqual([]);
  });

  it('does not ask for a body that cannot be read into a document', async () => {
    const lookup = delayedLookup();
    const result = await schools().validateInsertWithDescriptors({ ...school(), schoolId: 'x' }, lookup);
    expect(Object.keys(failureOf(result).validationErrors ?? {})).toEqual(['$.schoolId']);
    expect(lookup.batches).toEqual([]);
  });

  it('checks a PUT body too, and gives the document the route id', async () => {
    const lookup = delayedLookup();
    const id = '9e1d5c4b3a2f4e6d8c7b6a5f4e3d2c1b';
    const body = { ...school(), nameOfInstitution: 'Grand Bend High School' };
    const failure = failureOf(await schools().validateUpdateWithDescriptors(body, id, lookup));
    expect(Object.keys(failure.validationErrors ?? {})).toEqual([
      '$.charterStatusDescriptor',
      '$.addresses[0].stateAbbreviationDescriptor',
      '$.gradeLevels[1].gradeLevelDescriptor',
      '$.schoolTypeDescriptor',
    ]);
    const valid = { schoolId: 255901999, nameOfInstitution: 'Grand Bend High School', ...categoriesAndGrades() };
    const result = await schools().validateUpdateWithDescriptors(valid, id, lookup);
    expect(result.ok && result.document.id).toBe(id);
    expect(lookup.batches).toHaveLength(2);
  });
});

function categoriesAndGrades(): Record<string, unknown> {
  const { educationOrganizationCategories, gradeLevels } = school();
  return { educationOrganizationCategories, gradeLevels: (gradeLevels as unknown[]).slice(0, 1) };
}
