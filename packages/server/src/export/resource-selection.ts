// Which resources an export covers: all of them (ed-fi and tpdm, descriptors and school years included), or those
// named by `--resources`, each as `endpoint` (in every namespace that has it) or `namespace.endpoint`, like the files.
import type { ModelRegistry, ResourceModel } from '../model/index.js';

export class UnknownResourceError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`Unknown resources: ${names.join(', ')} (expected endpoints such as students or tpdm.candidates)`);
    this.name = 'UnknownResourceError';
  }
}

function resourcesNamed(name: string, registry: ModelRegistry): ResourceModel[] {
  const dot = name.lastIndexOf('.');
  if (dot !== -1) {
    const resource = registry.getResource(name.slice(0, dot), name.slice(dot + 1));
    return resource ? [resource] : [];
  }
  const endpoint = name.toLowerCase();
  return registry.allResources.filter((resource) => resource.endpoint.toLowerCase() === endpoint);
}

/** The selected resources in the registry's order (namespace, then endpoint); every name must match one. */
export function selectResources(registry: ModelRegistry, names?: readonly string[]): readonly ResourceModel[] {
  if (names === undefined) return registry.allResources;
  const selected = new Set<ResourceModel>();
  const unknown: string[] = [];
  for (const name of names) {
    const found = resourcesNamed(name, registry);
    if (found.length === 0) unknown.push(name);
    for (const resource of found) selected.add(resource);
  }
  if (unknown.length > 0) throw new UnknownResourceError(unknown);
  return registry.allResources.filter((resource) => selected.has(resource));
}
