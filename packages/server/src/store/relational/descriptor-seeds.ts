// The write a seeded descriptor value makes: its canonical body (model property order, absent members left out) with
// its identity and securables, as the API layer would have extracted them.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { DescriptorRow, DocumentWrite } from '../store.js';

export function descriptorSeedWrite(
  registry: ModelRegistry,
  resource: ResourceModel,
  value: DescriptorRow,
): DocumentWrite {
  const accessors = registry.accessorsOf(resource);
  const fields: Record<string, unknown> = { ...value };
  const body: Record<string, unknown> = {};
  for (const name of Object.keys(resource.shape.properties ?? {}))
    if (fields[name] !== undefined) body[name] = fields[name];
  return {
    resource,
    body,
    identity: accessors.identityOf(body),
    references: [],
    descriptors: [],
    securables: accessors.securablesOf(body),
  };
}
