// A profile definition resolved against the model: each covered resource with its readable and writable rules, and
// the problems that make the profile misconfigured (an unknown resource or member).
import type { ModelRegistry, ProjectNamespace, ResourceModel } from '../model/index.js';
import type { ContentUsage, ProfileDefinition, ResourceContent } from './definition.js';
import { compileContent, type LevelPolicy } from './member-policy.js';

export interface ResourcePolicies {
  readonly resource: ResourceModel;
  readonly readable?: LevelPolicy;
  readonly writable?: LevelPolicy;
}

export interface CompiledProfile {
  readonly definition: ProfileDefinition;
  readonly name: string;
  /** By resource; a profile naming a resource twice keeps the first. */
  readonly resources: ReadonlyMap<ResourceModel, ResourcePolicies>;
  /** Why the profile is misconfigured; empty when it is valid. */
  readonly problems: readonly string[];
}

const logicalKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * `logicalSchema` as the ODS writes it (`Ed-Fi`, `TPDM`, `Sample`: the project's name) to the namespace of a project
 * the registry serves.
 */
function namespaceOf(registry: ModelRegistry, logicalSchema: string | undefined): ProjectNamespace | undefined {
  if (logicalSchema === undefined) return undefined;
  const key = logicalKey(logicalSchema);
  if (key === 'edfi') return 'ed-fi';
  return registry.extensionProjects.find((project) => logicalKey(project.name) === key)?.namespace;
}

function resolved(registry: ModelRegistry, content: ResourceContent): ResourceModel | undefined {
  const namespace = namespaceOf(registry, content.logicalSchema);
  if (content.logicalSchema !== undefined && namespace === undefined) return undefined;
  const exact = registry.getResourceByName(content.name, namespace);
  if (exact !== undefined) return exact;
  const wanted = content.name.toLowerCase();
  return registry.allResources.find(
    (resource) =>
      resource.resourceName.toLowerCase() === wanted && (namespace === undefined || resource.namespace === namespace),
  );
}

export function compileProfile(registry: ModelRegistry, definition: ProfileDefinition): CompiledProfile {
  const problems: string[] = [];
  const resources = new Map<ResourceModel, ResourcePolicies>();
  for (const content of definition.resources) {
    const resource = resolved(registry, content);
    if (resource === undefined) {
      problems.push(`Resource '${content.name}' is not a resource of this API.`);
      continue;
    }
    if (resources.has(resource)) continue;
    const compiled = (usage: ContentUsage) => {
      const member = usage === 'readable' ? content.read : content.write;
      if (member === undefined) return {};
      const { policy, problems: found } = compileContent(resource, member, usage === 'readable' ? 'read' : 'write');
      problems.push(...found);
      return { [usage]: policy };
    };
    resources.set(resource, { resource, ...compiled('readable'), ...compiled('writable') });
  }
  return { definition, name: definition.name, resources, problems };
}
