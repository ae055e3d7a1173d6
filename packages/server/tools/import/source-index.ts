// Indexes the derived source model by namespace/endpoint and by resource name, for cross-resource look-ups.
import type { ProjectNamespace } from '../../src/model/types.js';
import type { DerivedModelFile, DerivedResource, SourceProject } from './source-types.js';

export interface SourceEntry {
  namespace: ProjectNamespace;
  endpoint: string;
  resource: DerivedResource;
}

export interface SourceIndex {
  /** Endpoint resources (not extensions), sorted by namespace then endpoint. */
  entries: SourceEntry[];
  /** TPDM `_ext` additions, keyed by the extended core endpoint. */
  extensions: Map<string, DerivedResource>;
  byName(namespace: ProjectNamespace, resourceName: string): SourceEntry | undefined;
  abstractNames: Set<string>;
  abstractSubclasses(resourceName: string): SourceEntry[];
}

export const NAMESPACES: readonly ProjectNamespace[] = ['ed-fi', 'tpdm'];

export function namespaceOfProject(project: SourceProject): ProjectNamespace {
  return project === 'TPDM' ? 'tpdm' : 'ed-fi';
}

export function indexSources(derived: DerivedModelFile): SourceIndex {
  const entries: SourceEntry[] = [];
  const extensions = new Map<string, DerivedResource>();
  for (const namespace of NAMESPACES) {
    for (const endpoint of Object.keys(derived.model[namespace]).sort()) {
      const resource = derived.model[namespace][endpoint]!;
      if (resource.isResourceExtension) extensions.set(endpoint, resource);
      else entries.push({ namespace, endpoint, resource });
    }
  }
  const named = new Map(entries.map((entry) => [`${entry.namespace}:${entry.resource.resourceName}`, entry]));
  const abstracts = derived.meta.abstractResources;
  return {
    entries,
    extensions,
    byName: (namespace, resourceName) => named.get(`${namespace}:${resourceName}`),
    abstractNames: new Set(Object.keys(abstracts)),
    abstractSubclasses: (resourceName) =>
      (abstracts[resourceName]?.subclasses ?? []).map((endpoint) => {
        const entry = entries.find((candidate) => candidate.namespace === 'ed-fi' && candidate.endpoint === endpoint);
        if (!entry) throw new Error(`Unknown subclass endpoint ${endpoint} of ${resourceName}`);
        return entry;
      }),
  };
}
