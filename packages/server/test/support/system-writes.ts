// Writes as the server itself (no authorization), for setting up data that authorization tests then read.
import { allowEveryAction, SYSTEM_CALLER, updateDocument, upsertDocument } from '../../src/api/index.js';
import type { ModelRegistry } from '../../src/model/index.js';
import { seedSchoolYears } from '../../src/setup/first-start.js';
import type { Store } from '../../src/store/index.js';

/** The descriptors and school years a first start seeds, which the documents written after reference. */
export async function seedReferenceData(store: Store, registry: ModelRegistry): Promise<void> {
  for (const descriptor of registry.descriptorResources)
    await store.seedDescriptors(descriptor, registry.descriptorValuesOf(descriptor.resourceName));
  await seedSchoolYears(store, registry);
}

/** `students` → ed-fi's, `sample/buses` → that namespace's. */
function resourceAt(registry: ModelRegistry, endpoint: string) {
  const [namespace, name] = endpoint.includes('/') ? endpoint.split('/', 2) : ['ed-fi', endpoint];
  const resource = registry.getResource(namespace!, name!);
  if (resource === undefined) throw new Error(`No resource ${namespace}/${name}`);
  return resource;
}

/**
 * POSTs the document to `ed-fi/{endpoint}` (or `{namespace}/{endpoint}`) and returns the item's id; an ownership
 * token stamps it as that owner's.
 */
export async function systemPost(
  store: Store,
  registry: ModelRegistry,
  endpoint: string,
  document: object,
  ownershipTokenId = SYSTEM_CALLER.ownershipTokenId,
): Promise<string> {
  const resource = resourceAt(registry, endpoint);
  const services = { store, registry, authorize: allowEveryAction };
  const request = { resource, caller: { ...SYSTEM_CALLER, ownershipTokenId }, collectionUrl: '', headers: {} };
  const response = await upsertDocument(services, request, { ...document });
  return String(response.headers?.Location).split('/').pop()!;
}

/** PUTs the document as the item `id` of `ed-fi/{endpoint}`; resolves once it is written. */
export async function systemPut(
  store: Store,
  registry: ModelRegistry,
  endpoint: string,
  id: string,
  document: object,
): Promise<void> {
  const resource = resourceAt(registry, endpoint);
  const services = { store, registry, authorize: allowEveryAction };
  const request = { resource, caller: SYSTEM_CALLER, collectionUrl: '', headers: {} };
  await updateDocument(services, request, id, { ...document });
}
