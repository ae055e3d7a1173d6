// A registry serves the Data Standard, TPDM and the optional extensions it is given: the others' resources,
// `_ext.{extension}` members (at the root and inside collection items) and paths are not in it.
import { describe, expect, it } from 'vitest';
import { getModelRegistry, type ModelRegistry, type PropertyShape } from '../../src/model/index.js';

function extensionNamesIn(shape: PropertyShape, into = new Set<string>()): Set<string> {
  for (const [name, member] of Object.entries(shape.properties ?? {})) {
    if (name === '_ext') for (const project of Object.keys(member.properties ?? {})) into.add(project);
    extensionNamesIn(member, into);
  }
  if (shape.items) extensionNamesIn(shape.items, into);
  return into;
}

function everyPathOf(registry: ModelRegistry): string[] {
  return registry.allResources.flatMap((resource) => [
    ...resource.references.map((reference) => reference.path),
    ...resource.descriptors.map((use) => use.path),
    ...resource.collections.map((collection) => collection.path),
    ...Object.values(resource.queryFields).flat(),
  ]);
}

describe('the extensions a registry serves', () => {
  it('leaves Sample and Homograph out by default, keeping TPDM', () => {
    const registry = getModelRegistry();
    const namespaces = new Set(registry.allResources.map((resource) => resource.namespace));
    expect([...namespaces].sort()).toEqual(['ed-fi', 'tpdm']);
    const extended = new Set(registry.allResources.flatMap((resource) => [...extensionNamesIn(resource.shape)]));
    expect([...extended]).toEqual(['tpdm']);
    expect(everyPathOf(registry).filter((path) => path.includes('_ext.sample'))).toEqual([]);
    expect(registry.allResources.flatMap((resource) => resource.extensions)).not.toContain('sample');
    expect(registry.extensionProjects.map((project) => project.name)).toEqual(['TPDM']);
  });

  it('adds Sample, inside collection items too, when asked', () => {
    const registry = getModelRegistry(['sample']);
    const contacts = registry.getResource('ed-fi', 'contacts')!;
    expect(contacts.extensions).toEqual(['sample']);
    expect(contacts.shape.properties!.addresses!.items!.properties!._ext!.properties).toHaveProperty('sample');
    expect(contacts.collections.map((collection) => collection.path)).toContain(
      '$.addresses[*]._ext.sample.schoolDistricts[*]',
    );
    const schools = registry.getResource('ed-fi', 'schools')!;
    expect(schools.extensions).toEqual(['sample', 'tpdm']);
    expect(registry.getResource('sample', 'buses')).toBeDefined();
    expect(registry.getResource('homograph', 'students')).toBeUndefined();
    const programs = registry.getAbstractResource('GeneralStudentProgramAssociation')!;
    expect(programs.subclasses).toContainEqual({ namespace: 'sample', endpoint: 'studentArtProgramAssociations' });
  });

  it('keeps same-named resources of two namespaces apart', () => {
    const registry = getModelRegistry(['homograph']);
    const core = registry.getResource('ed-fi', 'students')!;
    const homograph = registry.getResource('homograph', 'students')!;
    expect(core.identityPaths).toEqual(['$.studentUniqueId']);
    expect(homograph.identityPaths).toEqual(['$.studentNameReference.firstName', '$.studentNameReference.lastSurname']);
    expect(registry.getResourceByName('Student')).toBe(core);
    expect(registry.getResourceByName('Student', 'homograph')).toBe(homograph);
    expect(registry.getResource('homograph', 'schoolYearTypes')!.isSchoolYearEnumeration).toBe(false);
    expect(registry.getResource('homograph', 'studentSchoolAssociations')!.allowIdentityUpdates).toBe(true);
  });

  it('refuses an extension the model does not have', () => {
    expect(() => getModelRegistry(['nosuch'])).toThrow(/Unknown extension nosuch/);
  });
});
