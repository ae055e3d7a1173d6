// Indexes the source model (the Data Standard's part of the derived model, and the extension projects, TPDM included,
// read from their ApiSchema)
// by namespace/endpoint and by resource name, for cross-resource look-ups.
import type { ProjectNamespace } from '../../src/model/types.js';
import type { DerivedModelFile, DerivedResource, SourceProject } from './source-types.js';

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
  /** Endpoint resources (not extensions), sorted by namespace then endpoint. */
  entries: SourceEntry[];
  /** `_ext` additions keyed by the extended core endpoint, one per extending project, by namespace. */
  extensions: Map<string, SourceEntry[]>;
  byName(namespace: ProjectNamespace, resourceName: string): SourceEntry | undefined;
  abstractNames: Set<string>;
  abstractSubclasses(resourceName: string): SourceEntry[];
}

/** Project name → URL namespace: the Data Standard's, and each extension's as it is read (`registerProject`). */
const PROJECT_NAMESPACES = new Map<SourceProject, ProjectNamespace>([['Ed-Fi', 'ed-fi']]);

export function namespaceOfProject(project: SourceProject): ProjectNamespace {
  const namespace = PROJECT_NAMESPACES.get(project);
  if (!namespace) throw new Error(`Unknown project ${project}`);
  return namespace;
}

/** Makes an extension project's name known, so references into it resolve to its namespace. */
export function registerProject(project: SourceProject, namespace: ProjectNamespace): void {
  const known = PROJECT_NAMESPACES.get(project);
  if (known && known !== namespace) throw new Error(`Project ${project} is already ${known}, not ${namespace}`);
  PROJECT_NAMESPACES.set(project, namespace);
}

function byNamespaceThenEndpoint(a: SourceEntry, b: SourceEntry): number {
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

export function indexSources(derived: DerivedModelFile, projects: readonly ExtensionProjectSource[] = []): SourceIndex {
  const entries: SourceEntry[] = [];
  const extensions = new Map<string, SourceEntry[]>();
  const models: [ProjectNamespace, Record<string, DerivedResource>][] = [
    ['ed-fi', derived.model['ed-fi'] ?? {}],
    ...projects.map((project): [ProjectNamespace, Record<string, DerivedResource>] => [
      project.namespace,
      project.resources,
    ]),
  ];
  for (const [namespace, model] of models) {
    for (const endpoint of Object.keys(model).sort()) {
      const resource = model[endpoint]!;
      const entry = { namespace, endpoint, resource };
      if (resource.isResourceExtension) extensions.set(endpoint, [...(extensions.get(endpoint) ?? []), entry]);
      else entries.push(entry);
    }
  }
  entries.sort(byNamespaceThenEndpoint);
  for (const list of extensions.values()) list.sort(byNamespaceThenEndpoint);
  const named = new Map(entries.map((entry) => [`${entry.namespace}:${entry.resource.resourceName}`, entry]));
  const abstracts = derived.meta.abstractResources;
  /** Extension resources that subclass a Data Standard abstract (Sample's studentArtProgramAssociations). */
  const extensionSubclasses = (resourceName: string): SourceEntry[] =>
    entries.filter((entry) => entry.namespace !== 'ed-fi' && entry.resource.superclass?.resourceName === resourceName);
  return {
    entries,
    extensions,
    byName: (namespace, resourceName) => named.get(`${namespace}:${resourceName}`),
    abstractNames: new Set(Object.keys(abstracts)),
    abstractSubclasses: (resourceName) => [
      ...(abstracts[resourceName]?.subclasses ?? []).map((endpoint) => {
        const entry = entries.find((candidate) => candidate.namespace === 'ed-fi' && candidate.endpoint === endpoint);
        if (!entry) throw new Error(`Unknown subclass endpoint ${endpoint} of ${resourceName}`);
        return entry;
      }),
      ...extensionSubclasses(resourceName),
    ],
  };
}
