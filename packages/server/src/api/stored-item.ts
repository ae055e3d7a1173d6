// A stored document as authorization checks it (its securable values and id) and as a write names it when it carries
// the authorized state into the store (its id and natural key), read from the body once.
import type { DocumentIdentity, ModelRegistry, ResourceModel } from '../model/index.js';
import type { AuthorizedTarget, StoredDocument } from '../store/store.js';
import type { AuthorizedItem } from './authorization.js';

function bodyOf(stored: StoredDocument): Record<string, unknown> {
  return JSON.parse(stored.bodyJson) as Record<string, unknown>;
}

function itemOf(registry: ModelRegistry, resource: ResourceModel, id: string, body: object): AuthorizedItem {
  return { securables: registry.accessorsOf(resource).securablesOf(body), id };
}

export function storedItemOf(registry: ModelRegistry, resource: ResourceModel, stored: StoredDocument): AuthorizedItem {
  return itemOf(registry, resource, stored.id, bodyOf(stored));
}

export function identityOfStored(
  registry: ModelRegistry,
  resource: ResourceModel,
  stored: StoredDocument,
): DocumentIdentity {
  return registry.accessorsOf(resource).identityOf(bodyOf(stored));
}

const subjectsOutsideKey = new WeakMap<ResourceModel, boolean>();

/** Whether authorization reads a value the natural key does not fix (the ODS's overrides add a few). */
function hasSubjectOutsideKey(resource: ResourceModel): boolean {
  let outside = subjectsOutsideKey.get(resource);
  if (outside === undefined) {
    const { educationOrganizations, students, staffs, contacts, namespaces } = resource.securableElements;
    const paths = [...educationOrganizations.map((element) => element.path), ...students, ...staffs, ...contacts];
    outside = [...paths, ...namespaces].some((path) => !resource.identityPaths.includes(path));
    subjectsOutsideKey.set(resource, outside);
  }
  return outside;
}

/**
 * The stored item to authorize a write against, and the same item as the write's precondition: its key, and its etag
 * where authorization read values outside the key.
 */
export function writeTargetOf(
  registry: ModelRegistry,
  resource: ResourceModel,
  stored: StoredDocument,
): { readonly item: AuthorizedItem; readonly target: AuthorizedTarget } {
  const body = bodyOf(stored);
  const identity = registry.accessorsOf(resource).identityOf(body);
  const key = { identity, body };
  const target = hasSubjectOutsideKey(resource) ? { id: stored.id, key, etag: stored.etag } : { id: stored.id, key };
  return { item: itemOf(registry, resource, stored.id, body), target };
}
