// Stored bodies: every collection present (nested ones inside present items and objects too), model order kept.
import { describe, expect, it } from 'vitest';
import { storedBodyOf } from '../../src/api/stored-body.js';
import { getModelRegistry } from '../../src/model/index.js';

const registry = getModelRegistry();

describe('stored bodies', () => {
  it('add the collections a client left out as empty arrays, in model order', () => {
    const students = registry.getResource('ed-fi', 'students')!;
    const body = storedBodyOf(students, {
      birthDate: '2010-05-12',
      firstName: 'Lisa',
      lastSurname: 'Woods',
      studentUniqueId: '604822',
    });
    expect(body).toEqual({
      birthDate: '2010-05-12',
      firstName: 'Lisa',
      identificationDocuments: [],
      lastSurname: 'Woods',
      otherNames: [],
      personalIdentificationDocuments: [],
      studentUniqueId: '604822',
      visas: [],
    });
    expect(Object.keys(body)).toEqual(Object.keys(students.shape.properties!).filter((name) => name in body));
  });

  it('fill nested collections of present items only', () => {
    const schools = registry.getResource('ed-fi', 'schools')!;
    const body = storedBodyOf(schools, {
      addresses: [{ city: 'Austin' }],
      schoolId: 1,
    });
    expect(body.addresses).toEqual([{ city: 'Austin', periods: [] }]);
    expect(body.gradeLevels).toEqual([]);
    expect(body).not.toHaveProperty('_ext');
  });

  it('leave resources without collections as they are', () => {
    const descriptor = registry.getResource('ed-fi', 'gradeLevelDescriptors')!;
    const document = { codeValue: 'x', namespace: 'uri://x', shortDescription: 'x' };
    expect(storedBodyOf(descriptor, document)).toBe(document);
  });
});
