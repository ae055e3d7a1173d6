// First start on an empty store: default descriptors, the school years and a sandbox client to try the API with (claim
// set `Ed-Fi Sandbox`, the sandbox namespaces, the sample district's education organization unless told otherwise).
import { allowEveryAction, SYSTEM_CALLER, upsertDocument, type DataServices } from '../api/index.js';
import type { ModelRegistry } from '../model/index.js';
import { createClient, SANDBOX_APPLICATION, type CreatedClient } from '../security/index.js';
import type { Store, DescriptorStore } from '../store/store.js';

export type SeedMode = 'descriptors' | 'none';

/** What seeding put into a new store. */
export interface Seeding {
  readonly descriptors: number;
  readonly schoolYears: number;
}

export interface FirstStart extends Seeding {
  readonly sandbox: CreatedClient;
}

async function seedDefaultDescriptors(store: DescriptorStore, registry: ModelRegistry): Promise<number> {
  let added = 0;
  for (const resource of registry.descriptorResources) {
    const rows = registry.descriptorValuesOf(resource.resourceName);
    if (rows.length > 0) added += await store.seedDescriptors(resource, rows);
  }
  return added;
}

/** Through the regular POST path, so the rows are validated and stored exactly like client data. */
export async function seedSchoolYears(store: Store, registry: ModelRegistry): Promise<number> {
  const resource = registry.allResources.find((candidate) => candidate.isSchoolYearEnumeration);
  if (resource === undefined) return 0;
  const services: DataServices = { store, registry, authorize: allowEveryAction };
  const request = { resource, caller: SYSTEM_CALLER, collectionUrl: '', headers: {} };
  for (const schoolYear of registry.schoolYears) await upsertDocument(services, request, { ...schoolYear });
  return registry.schoolYears.length;
}

/**
 * Seeds a store that holds no data or clients yet, as the ODS ships its database: school years always, the default
 * descriptors unless `none`. Undefined when the store is not empty. Every command that can meet a new store runs it.
 */
export async function seedNewStore(
  store: Store,
  registry: ModelRegistry,
  seed: SeedMode,
): Promise<Seeding | undefined> {
  if (!(await store.isEmpty())) return undefined;
  const descriptors = seed === 'descriptors' ? await seedDefaultDescriptors(store, registry) : 0;
  const schoolYears = await seedSchoolYears(store, registry);
  return { descriptors, schoolYears };
}

/** Seeds an empty store and creates its sandbox client; undefined when the store already holds data or clients. */
export async function prepareFirstStart(
  store: Store,
  registry: ModelRegistry,
  seed: SeedMode,
  sandboxEducationOrganizationIds: readonly number[] = SANDBOX_APPLICATION.educationOrganizationIds,
): Promise<FirstStart | undefined> {
  const seeding = await seedNewStore(store, registry, seed);
  if (seeding === undefined) return undefined;
  const { vendorName, applicationName, claimSetName, namespacePrefixes } = SANDBOX_APPLICATION;
  const sandbox = await createClient(store, {
    name: 'Sandbox',
    vendor: vendorName,
    application: applicationName,
    claimSet: claimSetName,
    namespacePrefixes,
    educationOrganizationIds: sandboxEducationOrganizationIds,
  });
  return { sandbox, ...seeding };
}
