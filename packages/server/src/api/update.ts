// PUT {resource}/{id}: full replacement of one item (contract §3.5): 204 with `Location` and `ETag`.
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import { messages } from '../model/validation/index.js';
import type { DocumentWrite, StoredDocument } from '../store/store.js';
import { authorizeReplaced, writeAuthorizedState } from './authorized-write.js';
import type { DataRequest, DataServices } from './data-request.js';
import { emptyResponse, etagHeader, type DataResponse } from './data-response.js';
import { documentWriteOf } from './document-write.js';
import { ifMatchOf } from './preconditions.js';
import { identityOfStored } from './stored-item.js';
import { routeIdOf } from './route-id.js';
import { keyChangeNotSupported, persisting } from './store-failures.js';
import { validUpdateDocument } from './validated-document.js';

/** A new natural key on a resource that keeps its keys: refused as the ODS does, before any authorization. */
function refuseUnsupportedKeyChange(
  registry: ModelRegistry,
  resource: ResourceModel,
  existing: StoredDocument,
  write: DocumentWrite,
): void {
  if (resource.allowIdentityUpdates) return;
  if (identityOfStored(registry, resource, existing).key !== write.identity.key) throw keyChangeNotSupported(resource);
}

export async function updateDocument(
  services: DataServices,
  request: DataRequest,
  routeId: string,
  body: unknown,
): Promise<DataResponse> {
  const { store, registry } = services;
  const { resource } = request;
  const id = routeIdOf(routeId, body == null ? { $: [messages.nonEmptyBodyRequired] } : {});
  const authorization = await services.authorize({ action: 'Update', resource, caller: request.caller });
  const document = await validUpdateDocument(resource, body, id, store.descriptors);
  const write = documentWriteOf(registry, resource, document);
  const ifMatch = ifMatchOf(request.headers);
  const outcome = await persisting('update', registry, resource, () =>
    writeAuthorizedState(async () => {
      const existing = await store.get(resource, id);
      if (existing !== undefined) refuseUnsupportedKeyChange(registry, resource, existing, write);
      const authorizedTarget = await authorizeReplaced(authorization, registry, resource, existing);
      await authorization.authorizeItem({ securables: write.securables }, 'proposed');
      return store.update(id, write, { ifMatch, authorizedTarget });
    }),
  );
  return emptyResponse(204, { Location: `${request.collectionUrl}/${outcome.id}`, ETag: etagHeader(outcome.etag) });
}
