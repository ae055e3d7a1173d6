// GET {resource}/{id} (contract §3.3): the representation with a quoted `ETag`, or 304 for a matching If-None-Match.
import type { StoredDocument } from '../store/store.js';
import type { DataServices, ReadRequest } from './data-request.js';
import { emptyResponse, etagHeader, jsonResponse, type DataResponse } from './data-response.js';
import { isNotModified } from './preconditions.js';
import { ApiProblem } from './problems.js';
import { renderDocument } from './representation.js';
import { readableIdOf } from './route-id.js';
import { readsFor } from './snapshot.js';
import { storedItemOf } from './stored-item.js';

export async function readDocument(
  services: DataServices,
  request: ReadRequest,
  routeId: string,
): Promise<DataResponse> {
  const stored = await readAuthorizedDocument(services, request, routeId);
  if (isNotModified(request.headers, stored.etag)) return emptyResponse(304);
  return jsonResponse(200, renderDocument(stored), { ETag: etagHeader(stored.etag) });
}

/** The document with this route id as the caller may read it: 404 when there is none, 403 when it is refused. */
export async function readAuthorizedDocument(
  services: DataServices,
  request: ReadRequest,
  routeId: string,
): Promise<StoredDocument> {
  const { resource } = request;
  const id = readableIdOf(routeId);
  const reads = await readsFor(services.store, request);
  const authorization = await services.authorize({ action: 'Read', resource, caller: request.caller });
  const { filter } = authorization;
  const found =
    filter === undefined
      ? await reads.get(resource, id).then((document) => document && { document, authorized: true })
      : await reads.getAuthorized(resource, id, filter);
  if (found === undefined) throw new ApiProblem('notFound', { detail: 'The specified item could not be found.' });
  const stored = found.document;
  // The store answered the filter; a refused item is checked in detail, which throws the 403 that explains why.
  if (!found.authorized)
    await authorization.authorizeItem(storedItemOf(services.registry, resource, stored), 'existing');
  return stored;
}
