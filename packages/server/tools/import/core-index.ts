// Indexes the Data Standard's part of the derived model by namespace/endpoint and by resource name, for the core build
// (extensions, TPDM included, are built apart against the core model: src/model/import/extension-model.ts).
import type { DerivedModelFile } from './source-types.js';
import {
  byNamespaceThenEndpoint,
  projectNamespaces,
  type SourceEntry,
  type SourceIndex,
} from '../../src/model/import/source-index.js';

export function indexCore(derived: DerivedModelFile): SourceIndex {
  const model = derived.model['ed-fi'] ?? {};
  const entries: SourceEntry[] = Object.keys(model)
    .map((endpoint) => ({ namespace: 'ed-fi', endpoint, resource: model[endpoint]! }))
    .sort(byNamespaceThenEndpoint);
  const named = new Map(entries.map((entry) => [entry.resource.resourceName, entry]));
  const abstracts = derived.meta.abstractResources;
  return {
    entries,
    extensions: new Map(),
    byName: (namespace, resourceName) => (namespace === 'ed-fi' ? named.get(resourceName) : undefined),
    abstractNames: new Set(Object.keys(abstracts)),
    abstractSubclasses: (resourceName) =>
      (abstracts[resourceName]?.subclasses ?? []).map((endpoint) => {
        const entry = entries.find((candidate) => candidate.endpoint === endpoint);
        if (!entry) throw new Error(`Unknown subclass endpoint ${endpoint} of ${resourceName}`);
        return entry;
      }),
    namespaceOf: projectNamespaces([['Ed-Fi', 'ed-fi']]),
  };
}
