// PUT {resource}/{id}: full replacement of one item (contract §3.5): 204 with `Location` and `ETag`.
import { authorizeReplaced, writeAuthorizedState } from './authorized-write.js';
import type { DataRequest, DataServices } from './data-request.js';
import { emptyResponse, etagHeader, type DataResponse } from './data-response.js';
import { documentWriteOf } from './document-write.js';
import { ifMatchOf } from './preconditions.js';
import { routeIdOf } from './route-id.js';
import { persisting } from './store-failures.js';
import { validUpdateDocument } from './validated-document.js';

export async function updateDocument(
  services: DataServices,
  request: DataRequest,
  routeId: string,
  body: unknown,
): Promise<DataResponse> {
  const { store, registry } = services;
  const { resource } = request;
  const id = routeIdOf(routeId);
  const authorization = await services.authorize({ action: 'Update', resource, caller: request.caller });
  const document = await validUpdateDocument(resource, body, id, store.descriptors);
  const write = documentWriteOf(registry, resource, document);
  const ifMatch = ifMatchOf(request.headers);
  const outcome = await persisting('update', resource, () =>
    writeAuthorizedState(async () => {
      const existing = await store.get(resource, id);
      const authorizedTarget = await authorizeReplaced(authorization, registry, resource, existing);
      await authorization.authorizeItem({ securables: write.securables }, 'proposed');
      return store.update(id, write, { ifMatch, authorizedTarget });
    }),
  );
  return emptyResponse(204, { Location: `${request.collectionUrl}/${outcome.id}`, ETag: etagHeader(outcome.etag) });
}
