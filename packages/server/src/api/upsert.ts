// POST {resource}: create, or replace by natural key (contract §3.4): 201 or 200, `Location` and `ETag`, no body.
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
  await services.authorize({ action: 'Create', resource, caller: request.caller });
  const document = validInsertDocument(resource, body, store.descriptors);
  const write = documentWriteOf(registry, resource, document);
  const ifMatch = ifMatchOf(request.headers);
  const outcome = await persisting('upsert', resource, () => store.upsert(write, { ifMatch }));
  return emptyResponse(outcome.status === 'created' ? 201 : 200, {
    Location: `${request.collectionUrl}/${outcome.id}`,
    ETag: etagHeader(outcome.etag),
  });
}
