// Merges an extension's part of the model (ExtensionModel) into the model it was built against: its resources, its
// `_ext.{namespace}` additions to the model's resources (at the root and inside collection items) with what lies inside
// them, its subclasses of the model's abstract resources, its project and its claims. The order of every list is the
// model files' (model/README.md, Ordering), so merging gives what one import of everything would.
import { parseJsonPath, type PathSegment } from './json-path.js';
import type { ModelData } from './load-model.js';
import type {
  ClaimsFile,
  ExtensionModel,
  PropertyShape,
  ResourceAddition,
  ResourceModel,
  ResourcesFile,
} from './types.js';

export class ExtensionModelError extends Error {}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byPath<T extends { path: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareText(a.path, b.path));
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compareText(a, b)));
}

/** The object shape with `_ext.{namespace}` set to `part` in the object the segments lead to. */
function withPartAt(
  shape: PropertyShape,
  segments: readonly PathSegment[],
  namespace: string,
  part: PropertyShape,
): PropertyShape {
  const [first, ...rest] = segments;
  const properties = shape.properties ?? {};
  if (!first) {
    const ext = properties._ext ?? { type: 'object', properties: {} };
    const projects = sortedKeys({ ...ext.properties, [namespace]: part });
    return { ...shape, properties: sortedKeys({ ...properties, _ext: { ...ext, properties: projects } }) };
  }
  const member = properties[first.name];
  const nested = first.isArray ? member?.items : member;
  if (!member || !nested) throw new ExtensionModelError(`no member ${first.name} to extend`);
  const extended = withPartAt(nested, rest, namespace, part);
  return {
    ...shape,
    properties: { ...properties, [first.name]: first.isArray ? { ...member, items: extended } : extended },
  };
}

/** The resource's shape with an extension's `_ext.{namespace}` parts. */
export function extendedShape(
  resource: ResourceModel,
  addition: Pick<ResourceAddition, 'shapes'>,
  namespace: string,
): PropertyShape {
  return Object.entries(addition.shapes).reduce(
    (shape, [path, part]) => withPartAt(shape, parseJsonPath(path), namespace, part),
    resource.shape,
  );
}

function withAddition(resource: ResourceModel, addition: ResourceAddition, namespace: string): ResourceModel {
  return {
    ...resource,
    references: byPath([...resource.references, ...addition.references]),
    descriptors: byPath([...resource.descriptors, ...addition.descriptors]),
    collections: byPath([...resource.collections, ...addition.collections]),
    equalityConstraints: [...resource.equalityConstraints, ...addition.equalityConstraints].sort(
      (a, b) => compareText(a.sourcePath, b.sourcePath) || compareText(a.targetPath, b.targetPath),
    ),
    extensions: [...resource.extensions, namespace].sort(compareText),
    shape: extendedShape(resource, addition, namespace),
  };
}

function byNamespaceThenEndpoint(a: ResourceModel, b: ResourceModel): number {
  return compareText(a.namespace, b.namespace) || compareText(a.endpoint, b.endpoint);
}

function mergedResources(resources: ResourcesFile, model: ExtensionModel): ResourcesFile {
  const { namespace } = model.project;
  const additions = new Map(
    model.additions.map((addition) => [`${addition.namespace}/${addition.endpoint}`, addition]),
  );
  const extended = resources.resources.map((resource) => {
    const addition = additions.get(`${resource.namespace}/${resource.endpoint}`);
    if (!addition) return resource;
    additions.delete(`${resource.namespace}/${resource.endpoint}`);
    try {
      return withAddition(resource, addition, namespace);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ExtensionModelError(`${namespace} extends ${resource.namespace}/${resource.endpoint}: ${reason}`);
    }
  });
  const unknown = [...additions.keys()];
  if (unknown.length > 0)
    throw new ExtensionModelError(`${namespace} extends unknown resources: ${unknown.join(', ')}`);
  const subclasses = model.resources.filter((resource) => resource.superclass);
  return {
    ...resources,
    extensionProjects: [...(resources.extensionProjects ?? []), model.project].sort((a, b) =>
      compareText(a.namespace, b.namespace),
    ),
    resources: [...extended, ...model.resources].sort(byNamespaceThenEndpoint),
    abstractResources: resources.abstractResources.map((abstract) => {
      const added = subclasses
        .filter((resource) => resource.superclass!.resourceName === abstract.resourceName)
        .map((resource) => ({ namespace: resource.namespace, endpoint: resource.endpoint }));
      if (added.length === 0) return abstract;
      return {
        ...abstract,
        subclasses: [...abstract.subclasses, ...added].sort((a, b) => compareText(a.endpoint, b.endpoint)),
      };
    }),
  };
}

function mergedClaims(claims: ClaimsFile, model: ExtensionModel): ClaimsFile {
  if (model.claims.length === 0) return claims;
  return { ...claims, hierarchy: [...claims.hierarchy, ...model.claims].sort((a, b) => compareText(a.name, b.name)) };
}

/** The model serving the extension too; an extension the model already has, or an addition it cannot place, is refused. */
export function withExtensionModel<T extends Pick<ModelData, 'resources' | 'claims'>>(
  data: T,
  model: ExtensionModel,
): T {
  const { namespace } = model.project;
  if ((data.resources.extensionProjects ?? []).some((project) => project.namespace === namespace)) {
    throw new ExtensionModelError(`The model already has the extension ${namespace}`);
  }
  return { ...data, resources: mergedResources(data.resources, model), claims: mergedClaims(data.claims, model) };
}
