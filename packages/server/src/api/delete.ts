// DELETE {resource}/{id} (contract §3.6): 204, or 404 / 409 / 412.
import { writeAuthorizedState } from './authorized-write.js';
import type { DataRequest, DataServices } from './data-request.js';
import { emptyResponse, type DataResponse } from './data-response.js';
import { ifMatchOf } from './preconditions.js';
import { routeIdOf } from './route-id.js';
import { persisting } from './store-failures.js';
import { storedItemOf } from './stored-item.js';

export async function deleteDocument(
  services: DataServices,
  request: DataRequest,
  routeId: string,
): Promise<DataResponse> {
  const { resource } = request;
  const id = routeIdOf(routeId);
  const authorization = await services.authorize({ action: 'Delete', resource, caller: request.caller });
  const ifMatch = ifMatchOf(request.headers);
  await persisting('delete', resource, () =>
    writeAuthorizedState(async () => {
      const existing = await services.store.get(resource, id);
      if (existing !== undefined)
        await authorization.authorizeItem(storedItemOf(services.registry, resource, existing), 'existing');
      const authorizedEtag = existing?.etag ?? null;
      await services.store.delete(resource, id, { ifMatch, authorizedEtag });
    }),
  );
  return emptyResponse(204);
}
