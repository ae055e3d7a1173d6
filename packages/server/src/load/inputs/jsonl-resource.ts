// The resource a JSON lines file holds, from its name: `{endpoint}.jsonl` (`students.jsonl`, ed-fi first, then tpdm)
// or `{namespace}.{endpoint}.jsonl` (`tpdm.candidates.jsonl`), matched case-insensitively like API routes.
import path from 'node:path';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';

const NAMESPACES = ['ed-fi', 'tpdm'] as const;

export function jsonlResourceOf(file: string, registry: ModelRegistry): ResourceModel | undefined {
  const name = path.basename(file, path.extname(file));
  const dot = name.lastIndexOf('.');
  if (dot !== -1) return registry.getResource(name.slice(0, dot), name.slice(dot + 1));
  for (const namespace of NAMESPACES) {
    const resource = registry.getResource(namespace, name);
    if (resource) return resource;
  }
  return undefined;
}

/** The conventional name of a resource's JSON lines file, as `jsonlResourceOf` reads it back. */
export function jsonlFileNameOf(resource: ResourceModel): string {
  return `${resource.namespace}.${resource.endpoint}.jsonl`;
}
