// DELETE {resource}/{id} (contract §3.6): 204, or 404 / 409 / 412.
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
  await services.authorize({ action: 'Delete', resource, caller: request.caller });
  const ifMatch = ifMatchOf(request.headers);
  await persisting('delete', resource, () => services.store.delete(resource, id, { ifMatch }));
  return emptyResponse(204);
}
