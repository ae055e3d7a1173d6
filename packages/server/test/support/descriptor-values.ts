// Makes the descriptor values a generated document uses exist in the store (descriptor types without default values
// get theirs here, as a client would load them first).
import type { ModelRegistry, ResourceModel } from '../../src/model/index.js';
import type { ResourceDocument } from '../../src/model/validation/index.js';
import type { Store } from '../../src/store/index.js';

export async function ensureDescriptorValues(
  store: Store,
  registry: ModelRegistry,
  resource: ResourceModel,
  document: ResourceDocument,
): Promise<void> {
  for (const { use, uri } of registry.accessorsOf(resource).descriptorsOf(document)) {
    if (store.descriptors.exists(use.descriptorNamespace, use.descriptor, uri)) continue;
    const descriptor = registry.getResourceByName(use.descriptor, use.descriptorNamespace);
    if (descriptor === undefined) throw new Error(`No descriptor resource ${use.descriptor}`);
    const separator = uri.indexOf('#');
    const codeValue = uri.slice(separator + 1);
    await store.seedDescriptors(descriptor, [
      { namespace: uri.slice(0, separator), codeValue, shortDescription: codeValue },
    ]);
  }
}
