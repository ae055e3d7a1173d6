// The resources of a profile as its readable and writable content types show them: the model's resource with its
// shape cut down to the included members (what the profile's OpenAPI document describes, contract §1.4).
import type { PropertyShape, ResourceModel } from '../model/index.js';
import type { CompiledProfile } from './compiled-profile.js';
import type { ContentUsage } from './definition.js';
import type { LevelPolicy } from './member-policy.js';

function prunedShape(policy: LevelPolicy): PropertyShape {
  const properties: Record<string, PropertyShape> = {};
  for (const [name, member] of Object.entries(policy.shape.properties ?? {})) {
    if (!policy.included.has(name)) continue;
    const child = policy.children.get(name);
    if (child === undefined) properties[name] = member;
    else if (member.type === 'array') properties[name] = { ...member, items: prunedShape(child) };
    else properties[name] = { ...member, ...prunedShape(child), type: member.type };
  }
  return { ...policy.shape, properties };
}

export interface ProfiledResource {
  readonly resource: ResourceModel;
  readonly usage: ContentUsage;
  /** The resource with the shape the content type shows. */
  readonly shown: ResourceModel;
}

export function profiledResources(profile: CompiledProfile): ProfiledResource[] {
  const resources: ProfiledResource[] = [];
  for (const policies of profile.resources.values()) {
    for (const usage of ['readable', 'writable'] as const) {
      const policy = policies[usage];
      if (policy !== undefined)
        resources.push({
          resource: policies.resource,
          usage,
          shown: { ...policies.resource, shape: prunedShape(policy) },
        });
    }
  }
  return resources;
}
