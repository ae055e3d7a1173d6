// The one place store errors become problems (contract §3.5, §3.6, §3.8, §6.4); anything else propagates as a 500.
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import { dependentItemDetail } from './dependent-item.js';
import { StoreError } from '../store/store.js';
import { ApiProblem } from './problems.js';
import { snapshotNotFound } from './snapshot.js';

export type WriteOperation = 'upsert' | 'update' | 'delete';

const NOT_FOUND_DETAIL: Record<WriteOperation, string | undefined> = {
  upsert: undefined,
  update: 'Resource to update was not found.',
  delete: 'Resource to delete was not found.',
};

const ETAG_MISMATCH =
  "The resource item's etag value does not match what was specified in the 'If-Match' request header indicating " +
  'that it has been modified by another client since it was last retrieved.';

function problemFor(
  error: StoreError,
  operation: WriteOperation,
  registry: ModelRegistry,
  resource: ResourceModel,
): ApiProblem {
  const [name] = error.resourceNames;
  switch (error.kind) {
    case 'not-found':
      return new ApiProblem('notFound', { detail: NOT_FOUND_DETAIL[operation] });
    case 'optimistic-lock-failed':
      return new ApiProblem('optimisticLockFailed', { errors: [ETAG_MISMATCH] });
    case 'unresolved-reference':
      return new ApiProblem('unresolvedReference', {
        detail: name === undefined ? undefined : `The referenced '${name}' item does not exist.`,
      });
    case 'dependent-item-exists':
      return new ApiProblem('dependentItemExists', {
        detail: name === undefined ? undefined : dependentItemDetail(registry, resource, name),
      });
    case 'non-unique-identity':
      return new ApiProblem('nonUniqueIdentity', {
        errors:
          name === undefined
            ? undefined
            : [`A primary key conflict occurred when attempting to create or update a record in the '${name}' table.`],
      });
    case 'cascade-limit-exceeded':
      return new ApiProblem('cascadeLimitExceeded', { errors: [error.message] });
    case 'authorized-state-changed':
      return new ApiProblem('multiUserConflict');
    case 'snapshot-expired':
      return snapshotNotFound(error.message);
    case 'key-change-not-supported':
      return keyChangeNotSupported(resource);
  }
}

export function keyChangeNotSupported(resource: ResourceModel): ApiProblem {
  return new ApiProblem('keyChangeNotSupported', {
    detail: `Identifying values for the ${resource.resourceName} data cannot be changed. Delete and recreate the item instead.`,
  });
}

/** Runs a store write, turning its data errors into the problems the contract gives for this operation. */
export async function persisting<T>(
  operation: WriteOperation,
  registry: ModelRegistry,
  resource: ResourceModel,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof StoreError) throw problemFor(error, operation, registry, resource);
    throw error;
  }
}
