import { describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';

const registry = getModelRegistry();
const entries = registry.dependencyOrder();

function orderOf(resource: string, operation: 'Create' | 'Update' = 'Create'): number {
  const entry = entries.find(
    (candidate) => candidate.resource === resource && candidate.operations.includes(operation),
  );
  if (!entry) throw new Error(`No ${operation} entry for ${resource}`);
  return entry.order;
}

describe('dependency order', () => {
  it('lists every resource except schoolYearTypes once, plus the people Update entries', () => {
    const createEntries = entries.filter((entry) => entry.operations.includes('Create'));
    expect(createEntries).toHaveLength(registry.allResources.length - 1);
    expect(entries.some((entry) => entry.resource === '/ed-fi/schoolYearTypes')).toBe(false);
    expect(
      entries
        .filter((entry) => !entry.operations.includes('Create'))
        .map((entry) => entry.resource)
        .sort(),
    ).toEqual(['/ed-fi/contacts', '/ed-fi/staffs', '/ed-fi/students']);
  });

  it('sorts by order then ordinal resource name', () => {
    for (let i = 1; i < entries.length; i++) {
      const [previous, current] = [entries[i - 1]!, entries[i]!];
      expect(
        previous.order < current.order || (previous.order === current.order && previous.resource < current.resource),
      ).toBe(true);
    }
  });

  it('puts descriptors in the first group', () => {
    for (const descriptor of registry.descriptorResources) {
      expect(orderOf(`/${descriptor.namespace}/${descriptor.endpoint}`)).toBe(1);
    }
  });

  it('orders every reference target (abstract ones via their subclasses) before its referrer', () => {
    let checked = 0;
    for (const resource of registry.resources) {
      if (resource.isSchoolYearEnumeration) continue;
      for (const reference of resource.references) {
        for (const target of registry.resolveTarget(reference.targetNamespace, reference.target)) {
          if (target === resource || target.isSchoolYearEnumeration) continue;
          // The one optional reference the ODS cuts to break the staffs → credentials → … → staffs cycle.
          if (reference.path === '$._ext.tpdm.studentAcademicRecords[*].studentAcademicRecordReference') continue;
          expect(
            orderOf(`/${target.namespace}/${target.endpoint}`),
            `${resource.endpoint} ${reference.path}`,
          ).toBeLessThan(orderOf(`/${resource.namespace}/${resource.endpoint}`));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('loads schools after local education agencies and enrolments after students and schools', () => {
    expect(orderOf('/ed-fi/localEducationAgencies')).toBeLessThan(orderOf('/ed-fi/schools'));
    expect(orderOf('/ed-fi/students')).toBeLessThan(orderOf('/ed-fi/studentSchoolAssociations'));
    expect(orderOf('/ed-fi/schools')).toBeLessThan(orderOf('/ed-fi/studentSchoolAssociations'));
  });

  it('updates people only after their authorizing associations', () => {
    expect(orderOf('/ed-fi/students', 'Update')).toBe(orderOf('/ed-fi/studentSchoolAssociations') + 1);
    expect(orderOf('/ed-fi/contacts', 'Update')).toBe(
      Math.max(orderOf('/ed-fi/studentContactAssociations'), orderOf('/ed-fi/studentSchoolAssociations')) + 1,
    );
    expect(orderOf('/ed-fi/staffs', 'Update')).toBe(
      Math.max(
        orderOf('/ed-fi/staffEducationOrganizationAssignmentAssociations'),
        orderOf('/ed-fi/staffEducationOrganizationEmploymentAssociations'),
      ) + 1,
    );
    expect(entries.find((entry) => entry.resource === '/ed-fi/students')?.operations).toEqual(['Create']);
  });

  it('is computed once and stable', () => {
    expect(registry.dependencyOrder()).toBe(entries);
  });
});
