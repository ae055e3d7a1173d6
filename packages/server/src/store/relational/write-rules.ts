// The write path's rules every SQL store applies alike: the StoreErrors a write raises, with the contract's messages,
// and what an identity change hands its cascade. (The preconditions are in write-preconditions.ts.)
import type { DocumentIdentity, ResourceModel } from '../../model/index.js';
import { StoreError } from '../store.js';
import type { ResolvedReferences, UnresolvedReference } from './resolved-references.js';
import type { ChangedTarget } from './reference-rewrite.js';

/** A document whose natural key changed, whose referrers a cascade visits next. */
export interface ChangedDocument extends ChangedTarget {
  readonly docId: number;
}

export function changedDocument(
  resource: ResourceModel,
  docId: number,
  oldIdentityKey: string,
  identity: DocumentIdentity,
): ChangedDocument {
  const newValues = new Map(resource.identityPaths.map((path, index) => [path, identity.values[index]]));
  return { resource, docId, oldIdentityKey, newValues };
}

/** Unresolved references are reported only here, so not-found, If-Match and key-change failures take precedence. */
export function resolvedOf(resolution: ResolvedReferences | UnresolvedReference): ResolvedReferences {
  if (!('missingTarget' in resolution)) return resolution;
  const name = resolution.missingTarget;
  throw new StoreError('unresolved-reference', `The referenced '${name}' item does not exist.`, [name]);
}

export function notFound(action: 'update' | 'delete'): StoreError {
  return new StoreError('not-found', `Resource to ${action} was not found.`);
}

export function keyChangeNotSupported(resource: ResourceModel): StoreError {
  return new StoreError(
    'key-change-not-supported',
    `Identifying values for the ${resource.resourceName} data cannot be changed. Delete and recreate the item instead.`,
    [resource.resourceName],
  );
}

export function cascadeLimitExceeded(limit: number, root: ResourceModel): StoreError {
  return new StoreError(
    'cascade-limit-exceeded',
    `The identity change would cascade to more than ${limit} documents.`,
    [root.resourceName],
  );
}

export function nonUniqueIdentity(resourceName: string): StoreError {
  return new StoreError(
    'non-unique-identity',
    'The identifying value(s) of the item are the same as another item that already exists.',
    [resourceName],
  );
}

/** @param referrerNames the resource names of the items referencing the one being deleted, in any order */
export function dependentItemExists(referrerNames: readonly string[]): StoreError {
  const names = [...new Set(referrerNames)].sort();
  return new StoreError(
    'dependent-item-exists',
    `The requested action cannot be performed because this item is referenced by an existing '${names[0]}' item.`,
    names,
  );
}
