// Indexes one extension's source resources for its build against the model it extends: its own resources by
// namespace/endpoint and name, its `_ext` additions by the endpoint they extend, the model's abstract resources (whose
// subclasses stay the model's), and the projects its references name (the Data Standard's, the model's extensions',
// its own).
import type { ResourcesFile } from '../types.js';
import {
  byNamespaceThenEndpoint,
  projectNamespaces,
  type ExtensionProjectSource,
  type SourceEntry,
  type SourceIndex,
} from './source-index.js';

export function indexExtension(extension: ExtensionProjectSource, model: ResourcesFile): SourceIndex {
  const entries: SourceEntry[] = [];
  const extensions = new Map<string, SourceEntry[]>();
  for (const [endpoint, resource] of Object.entries(extension.resources)) {
    const entry = { namespace: extension.namespace, endpoint, resource };
    if (resource.isResourceExtension) extensions.set(endpoint, [entry]);
    else entries.push(entry);
  }
  entries.sort(byNamespaceThenEndpoint);
  const named = new Map(entries.map((entry) => [entry.resource.resourceName, entry]));
  return {
    entries,
    extensions,
    byName: (namespace, resourceName) => (namespace === extension.namespace ? named.get(resourceName) : undefined),
    abstractNames: new Set(model.abstractResources.map((abstract) => abstract.resourceName)),
    abstractSubclasses: () => [],
    namespaceOf: projectNamespaces([
      ['Ed-Fi', 'ed-fi'],
      ...(model.extensionProjects ?? []).map((project): [string, string] => [project.name, project.namespace]),
      [extension.projectName, extension.namespace],
    ]),
  };
}
