// The source resources a model build works on, indexed by namespace/endpoint and by resource name for cross-resource
// look-ups: the Data Standard's (tools/import/core-index.ts), or one extension's against the model it extends
// (extension-index.ts).
import type { ProjectNamespace } from '../types.js';
import type { DerivedResource, SourceProject } from './source-types.js';

export interface SourceEntry {
  namespace: ProjectNamespace;
  endpoint: string;
  resource: DerivedResource;
}

/** An extension project's source resources, keyed by endpoint (its own resources and its `_ext` additions). */
export interface ExtensionProjectSource {
  namespace: ProjectNamespace;
  projectName: SourceProject;
  resources: Record<string, DerivedResource>;
}

export interface SourceIndex {
  /** Endpoint resources (not `_ext` additions), sorted by namespace then endpoint. */
  entries: SourceEntry[];
  /** `_ext` additions keyed by the extended core endpoint, by namespace. */
  extensions: Map<string, SourceEntry[]>;
  byName(namespace: ProjectNamespace, resourceName: string): SourceEntry | undefined;
  abstractNames: Set<string>;
  /** Subclasses among the entries (an extension's index has none of the model's). */
  abstractSubclasses(resourceName: string): SourceEntry[];
  /** The URL namespace of a project name (`Ed-Fi` → `ed-fi`); throws for an unknown project. */
  namespaceOf(project: SourceProject): ProjectNamespace;
}

export function byNamespaceThenEndpoint(
  a: { namespace: string; endpoint: string },
  b: { namespace: string; endpoint: string },
): number {
  return a.namespace < b.namespace
    ? -1
    : a.namespace > b.namespace
      ? 1
      : a.endpoint < b.endpoint
        ? -1
        : a.endpoint > b.endpoint
          ? 1
          : 0;
}

/** Project name → namespace from the given pairs; an unknown project is an error naming it. */
export function projectNamespaces(pairs: Iterable<[SourceProject, ProjectNamespace]>): (project: string) => string {
  const known = new Map(pairs);
  return (project) => {
    const namespace = known.get(project);
    if (namespace === undefined) throw new Error(`Unknown project ${project}`);
    return namespace;
  };
}
