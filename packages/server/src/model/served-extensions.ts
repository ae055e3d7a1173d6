// Which extension projects a registry serves. The committed model holds every shipped extension, merged into the
// resources it extends; a registry serves the Data Standard, TPDM (always on, as in the ODS/API 7.3 product this
// server matches) and the optional extensions it is given: the others' resources, `_ext.{namespace}` members and
// paths are taken out, so a store that does not serve an extension knows nothing of it.
import type { ModelData } from './load-model.js';
import type { JsonPath, ProjectNamespace, PropertyShape, ResourceModel, SecurableElements } from './types.js';

/** Namespaces every registry serves. */
export const ALWAYS_SERVED: readonly ProjectNamespace[] = ['ed-fi', 'tpdm'];

/** The optional extension namespaces the model holds (shipped or added), sorted. */
export function optionalExtensions(data: ModelData): ProjectNamespace[] {
  const namespaces = new Set(data.resources.resources.map((resource) => resource.namespace));
  for (const resource of data.resources.resources)
    for (const namespace of resource.extensions) namespaces.add(namespace);
  return [...namespaces].filter((namespace) => !ALWAYS_SERVED.includes(namespace)).sort();
}

/** A path inside `_ext.{namespace}` of an unserved namespace (at the root or inside a collection item). */
function isUnservedPath(path: JsonPath, unserved: ReadonlySet<ProjectNamespace>): boolean {
  const marker = path.indexOf('._ext.');
  if (marker < 0) return false;
  const rest = path.slice(marker + '._ext.'.length);
  const namespace = rest.split(/[.[]/, 1)[0]!;
  return unserved.has(namespace) || isUnservedPath(rest.slice(namespace.length), unserved);
}

function withoutUnservedMembers(shape: PropertyShape, unserved: ReadonlySet<ProjectNamespace>): PropertyShape {
  if (!shape.properties && !shape.items) return shape;
  const result: PropertyShape = { ...shape };
  if (shape.items) result.items = withoutUnservedMembers(shape.items, unserved);
  if (shape.properties) {
    const properties: Record<string, PropertyShape> = {};
    for (const [name, member] of Object.entries(shape.properties)) {
      if (name === '_ext') {
        const kept = Object.entries(member.properties ?? {}).filter(([namespace]) => !unserved.has(namespace));
        if (kept.length === 0) continue;
        properties[name] = {
          ...member,
          properties: Object.fromEntries(
            kept.map(([namespace, part]) => [namespace, withoutUnservedMembers(part, unserved)]),
          ),
        };
      } else {
        properties[name] = withoutUnservedMembers(member, unserved);
      }
    }
    result.properties = properties;
  }
  return result;
}

function withoutUnservedSecurables(
  securables: SecurableElements,
  keep: (path: JsonPath) => boolean,
): SecurableElements {
  return {
    educationOrganizations: securables.educationOrganizations.filter((element) => keep(element.path)),
    students: securables.students.filter(keep),
    staffs: securables.staffs.filter(keep),
    contacts: securables.contacts.filter(keep),
    namespaces: securables.namespaces.filter(keep),
  };
}

function servedPart(resource: ResourceModel, unserved: ReadonlySet<ProjectNamespace>): ResourceModel {
  if (!resource.extensions.some((namespace) => unserved.has(namespace))) return resource;
  const keep = (path: JsonPath) => !isUnservedPath(path, unserved);
  return {
    ...resource,
    references: resource.references.filter((reference) => keep(reference.path)),
    descriptors: resource.descriptors.filter((use) => keep(use.path)),
    collections: resource.collections.filter((collection) => keep(collection.path)),
    equalityConstraints: resource.equalityConstraints.filter(
      (constraint) => keep(constraint.sourcePath) && keep(constraint.targetPath),
    ),
    queryFields: Object.fromEntries(Object.entries(resource.queryFields).filter(([, paths]) => paths.every(keep))),
    securableElements: withoutUnservedSecurables(resource.securableElements, keep),
    extensions: resource.extensions.filter((namespace) => !unserved.has(namespace)),
    shape: withoutUnservedMembers(resource.shape, unserved),
  };
}

/** The model as a registry serving `extensions` (optional namespaces; unknown ones are an error) sees it. */
export function servingExtensions(data: ModelData, extensions: readonly ProjectNamespace[]): ModelData {
  const available = optionalExtensions(data);
  const unknown = extensions.filter((namespace) => !available.includes(namespace));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown extension ${unknown.join(', ')}; this model has ${available.length > 0 ? available.join(', ') : 'none'}`,
    );
  }
  const unserved = new Set(available.filter((namespace) => !extensions.includes(namespace)));
  if (unserved.size === 0) return data;
  const served = (namespace: ProjectNamespace) => !unserved.has(namespace);
  return {
    ...data,
    resources: {
      ...data.resources,
      extensionProjects: (data.resources.extensionProjects ?? []).filter((project) => served(project.namespace)),
      resources: data.resources.resources
        .filter((resource) => served(resource.namespace))
        .map((resource) => servedPart(resource, unserved)),
      abstractResources: data.resources.abstractResources.map((abstract) => ({
        ...abstract,
        subclasses: abstract.subclasses.filter((subclass) => served(subclass.namespace)),
      })),
    },
  };
}
