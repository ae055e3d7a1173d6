// DELETE {resource}/{id} (contract §3.6): 204, or 404 / 409 / 412.
import { authorizeReplaced, writeAuthorizedState } from './authorized-write.js';
import type { DataRequest, DataServices } from './data-request.js';
import { emptyResponse, type DataResponse } from './data-response.js';
import { ifMatchOf } from './preconditions.js';
import { routeIdOf } from './route-id.js';
import { persisting } from './store-failures.js';

export async function deleteDocument(
  services: DataServices,
  request: DataRequest,
  routeId: string,
): Promise<DataResponse> {
  const { resource } = request;
  const id = routeIdOf(routeId);
  const authorization = await services.authorize({ action: 'Delete', resource, caller: request.caller });
  const ifMatch = ifMatchOf(request.headers);
  await persisting('delete', services.registry, resource, () =>
    writeAuthorizedState(async () => {
      const existing = await services.store.get(resource, id);
      const authorizedTarget = await authorizeReplaced(authorization, services.registry, resource, existing);
      await services.store.delete(resource, id, { ifMatch, authorizedTarget });
    }),
  );
  return emptyResponse(204);
}
