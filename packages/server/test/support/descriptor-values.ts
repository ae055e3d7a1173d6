// Makes the descriptor values a generated document uses exist in the store (descriptor types without default values
// get theirs here, as a client would load them first), and asks the store whether one URI exists.
import type { ModelRegistry, ProjectNamespace, ResourceModel } from '../../src/model/index.js';
import type { ResourceDocument } from '../../src/model/validation/index.js';
import type { Store } from '../../src/store/index.js';

export async function descriptorExists(
  store: Pick<Store, 'descriptors'>,
  namespace: ProjectNamespace,
  descriptor: string,
  uri: string,
): Promise<boolean> {
  const [exists] = await store.descriptors.exist([{ namespace, descriptor, uri }]);
  return exists === true;
}

export async function ensureDescriptorValues(
  store: Store,
  registry: ModelRegistry,
  resource: ResourceModel,
  document: ResourceDocument,
): Promise<void> {
  const used = registry.accessorsOf(resource).descriptorsOf(document);
  const exist = await store.descriptors.exist(
    used.map(({ use, uri }) => ({ namespace: use.descriptorNamespace, descriptor: use.descriptor, uri })),
  );
  for (const [index, { use, uri }] of used.entries()) {
    if (exist[index]) continue;
    const descriptor = registry.getResourceByName(use.descriptor, use.descriptorNamespace);
    if (descriptor === undefined) throw new Error(`No descriptor resource ${use.descriptor}`);
    const separator = uri.indexOf('#');
    const codeValue = uri.slice(separator + 1);
    await store.seedDescriptors(descriptor, [
      { namespace: uri.slice(0, separator), codeValue, shortDescription: codeValue },
    ]);
  }
}
