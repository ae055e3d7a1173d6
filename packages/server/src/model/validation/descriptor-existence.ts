// Descriptor resolution during validation (contract §3.11): every descriptor URI in a document must name an existing
// descriptor of the expected type. The lookup is supplied by the caller (a cache over the store).
import { compilePathCollector, type ProjectNamespace, type ResourceModel } from '../index.js';
import { messages } from './messages.js';
import type { ValidationErrorsBuilder } from './validation-errors-builder.js';
import type { JsonObject } from './validation-result.js';

export interface DescriptorLookup {
  /** Whether a descriptor of this resource (e.g. `GradeLevelDescriptor`) exists with this URI, compared case-insensitively. */
  exists(namespace: ProjectNamespace, descriptor: string, uri: string): boolean;
}

export type DescriptorExistenceCheck = (
  document: JsonObject,
  lookup: DescriptorLookup,
  into: ValidationErrorsBuilder,
) => void;

export function compileDescriptorExistenceCheck(resource: ResourceModel): DescriptorExistenceCheck {
  const uses = resource.descriptors.map((use) => ({
    collect: compilePathCollector(use.path),
    namespace: use.descriptorNamespace,
    descriptor: use.descriptor,
  }));
  return (document, lookup, into) => {
    for (const { collect, namespace, descriptor } of uses) {
      collect(document, (value, path) => {
        // A value without '#' was already reported by the shape check.
        if (typeof value !== 'string' || !value.includes('#')) return;
        if (!lookup.exists(namespace, descriptor, value))
          into.add(path, messages.descriptorNotFound(descriptor, value));
      });
    }
  };
}
