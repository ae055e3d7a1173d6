// POST {resource}: create, or replace by natural key (contract §3.4): 201 or 200, `Location` and `ETag`, no body.
import { authorizeReplaced, writeAuthorizedState } from './authorized-write.js';
import type { DataRequest, DataServices } from './data-request.js';
import { emptyResponse, etagHeader, type DataResponse } from './data-response.js';
import { documentWriteOf } from './document-write.js';
import { ifMatchOf } from './preconditions.js';
import { persisting } from './store-failures.js';
import { validInsertDocument } from './validated-document.js';

export async function upsertDocument(
  services: DataServices,
  request: DataRequest,
  body: unknown,
): Promise<DataResponse> {
  const { store, registry } = services;
  const { resource } = request;
  const document = await validInsertDocument(resource, body, store.descriptors);
  // A created document keeps its creator's ownership token (OwnershipBased authorization); 0 is no application's.
  const { ownershipTokenId } = request.caller;
  const write = {
    ...documentWriteOf(registry, resource, document),
    ...(ownershipTokenId > 0 ? { ownershipTokenId } : {}),
  };
  const ifMatch = ifMatchOf(request.headers);
  const outcome = await persisting('upsert', registry, resource, () =>
    writeAuthorizedState(async () => {
      // A POST of an existing natural key is an update of that item, authorized as one (contract §8.2).
      const existing = await store.findByIdentity(write);
      const action = existing === undefined ? 'Create' : 'Update';
      const authorization = await services.authorize({ action, resource, caller: request.caller });
      const authorizedTarget = await authorizeReplaced(authorization, registry, resource, existing);
      await authorization.authorizeItem({ securables: write.securables }, 'proposed');
      return store.upsert(write, { ifMatch, authorizedTarget });
    }),
  );
  return emptyResponse(outcome.status === 'created' ? 201 : 200, {
    Location: `${request.collectionUrl}/${outcome.id}`,
    ETag: etagHeader(outcome.etag),
  });
}
