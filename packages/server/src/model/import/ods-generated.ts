// Reads facts from the ODS/API code generator's C# output (`ods-generated/`) and the ODS's hand-written
// authorization overrides: per resource, the properties it is authorized on and the GET-by-example parameters.
import type { ProjectNamespace } from '../types.js';

/** `namespace/ResourceName` → property names (ODS PascalCase), in file order. */
export type PropertiesByResource = ReadonlyMap<string, readonly string[]>;

/** What the ODS's generated code says of each resource, keyed by `resourceKey`. */
export interface OdsResourceFacts {
  /** Properties the resource is authorized on (none for resources without a provider). */
  authorizationSubjects: PropertiesByResource;
  /** The `…GetByExample` properties. */
  queryParameters: PropertiesByResource;
}

export function resourceKey(namespace: ProjectNamespace, resourceName: string): string {
  return `${namespace}/${resourceName}`;
}

const PROVIDER_CLASS = /class (\w+)RelationshipsAuthorizationContextDataProvider\b/g;
const PROPERTY_NAMES_BODY = /GetAuthorizationContextPropertyNames\(\)\s*\{([\s\S]*?)\breturn\b/;
/** A string literal that starts its line: the commented-out ones (`// "X",`) are not used by the ODS. */
const ACTIVE_NAME = /^\s*"(\w+)"/gm;

/** Per provider class: the uncommented names its `GetAuthorizationContextPropertyNames` returns. */
export function parseAuthorizationProviders(text: string): Map<string, string[]> {
  const providers = new Map<string, string[]>();
  const starts = [...text.matchAll(PROVIDER_CLASS)];
  starts.forEach((match, i) => {
    const body = text.slice(match.index, starts[i + 1]?.index ?? text.length);
    const names = PROPERTY_NAMES_BODY.exec(body)?.[1];
    if (names === undefined) throw new Error(`No GetAuthorizationContextPropertyNames in ${match[1]}'s provider`);
    providers.set(
      match[1]!,
      [...names.matchAll(ACTIVE_NAME)].map((name) => name[1]!),
    );
  });
  return providers;
}

export interface AuthorizationSubjectSources {
  /** Generated provider files, per project namespace. */
  generated: Record<ProjectNamespace, string>;
  /** The ODS's override providers (ed-fi resources); each replaces the generated provider of its resource. */
  overrides: string[];
}

export function readAuthorizationSubjects(sources: AuthorizationSubjectSources): PropertiesByResource {
  const subjects = new Map<string, readonly string[]>();
  for (const [namespace, text] of Object.entries(sources.generated) as [ProjectNamespace, string][])
    for (const [name, properties] of parseAuthorizationProviders(text))
      subjects.set(resourceKey(namespace, name), properties);
  for (const text of sources.overrides) {
    for (const [name, properties] of parseAuthorizationProviders(text)) {
      const key = resourceKey('ed-fi', name);
      if (!subjects.has(key)) throw new Error(`Authorization override for ${name}, which has no generated provider`);
      subjects.set(key, properties);
    }
  }
  return subjects;
}

const REQUESTS_NAMESPACE = /namespace EdFi\.Ods\.Api\.Common\.Models\.Requests\.\w+\.\w+\s*\{/g;
const GET_BY_EXAMPLE = /public class (\w+)GetByExample\s*\{([\s\S]*?)\n\s*\}/;
const AUTO_PROPERTY = /public \S+ (\w+) \{ get; set; \}/g;

/** Per resource: the properties of its `…GetByExample` class (inherited ones included). */
export function readQueryParameters(texts: Record<ProjectNamespace, string>): PropertiesByResource {
  const parameters = new Map<string, readonly string[]>();
  for (const [namespace, text] of Object.entries(texts) as [ProjectNamespace, string][]) {
    for (const block of text.split(REQUESTS_NAMESPACE).slice(1)) {
      const match = GET_BY_EXAMPLE.exec(block);
      if (match === null) continue;
      parameters.set(
        resourceKey(namespace, match[1]!),
        [...match[2]!.matchAll(AUTO_PROPERTY)].map((property) => property[1]!),
      );
    }
  }
  return parameters;
}
