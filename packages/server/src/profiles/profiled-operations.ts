// The data operations through a profile (contract §9.1): the profile is chosen before the operation runs (its
// problems come first), reads leave out what the readable profile excludes and answer its media type, and writes
// store the body as the writable profile shapes it against the stored document.
import {
  parseResourceId,
  queryDocuments,
  readDocument,
  updateDocument,
  upsertDocument,
  type DataRequest,
  type DataResponse,
  type DataServices,
  type QueryParameters,
  type ReadRequest,
} from '../api/index.js';
import { documentWriteOf } from '../api/document-write.js';
import type { JsonObject, ResourceDocument } from '../model/validation/index.js';
import type { ProfileCatalog } from './profile-catalog.js';
import { selectProfile, type AppliedProfile } from './profile-selection.js';
import { readableDocument } from './readable-document.js';
import { WritableDocument } from './writable-document.js';

export interface ProfiledServices extends DataServices {
  readonly profiles: ProfileCatalog;
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The response with its body as the readable profile shows it, under the profile's media type. */
function profiledResponse(response: DataResponse, profile: AppliedProfile): DataResponse {
  if (response.body === undefined || response.body === '') return response;
  const parsed = JSON.parse(response.body) as JsonObject | JsonObject[];
  const shown = Array.isArray(parsed)
    ? parsed.map((item) => readableDocument(profile.policy, item))
    : readableDocument(profile.policy, parsed);
  const body = JSON.stringify(shown);
  return {
    status: response.status,
    headers: {
      ...response.headers,
      'Content-Type': `${profile.contentType}; charset=utf-8`,
      'Content-Length': Buffer.byteLength(body),
    },
    body,
  };
}

/** A read answered through the readable profile that applies, if one does. */
async function readThroughProfile(
  services: ProfiledServices,
  request: ReadRequest,
  read: () => Promise<DataResponse>,
): Promise<DataResponse> {
  const profile = await selectProfile(services.profiles, request, 'GET');
  const response = await read();
  return profile === undefined ? response : profiledResponse(response, profile);
}

export function profiledRead(services: ProfiledServices, request: ReadRequest, routeId: string): Promise<DataResponse> {
  return readThroughProfile(services, request, () => readDocument(services, request, routeId));
}

export function profiledQuery(
  services: ProfiledServices,
  request: ReadRequest,
  parameters: QueryParameters,
): Promise<DataResponse> {
  return readThroughProfile(services, request, () => queryDocuments(services, request, parameters));
}

/** The stored document a POST body would replace; undefined when none does, or its natural key cannot be read. */
async function replacedBy(
  services: DataServices,
  request: DataRequest,
  body: JsonRecord,
): Promise<JsonRecord | undefined> {
  let stored;
  try {
    stored = await services.store.findByIdentity(
      documentWriteOf(services.registry, request.resource, body as ResourceDocument),
    );
  } catch {
    // Validation then reports what is wrong with the key.
    return undefined;
  }
  return stored === undefined ? undefined : (JSON.parse(stored.bodyJson) as JsonRecord);
}

export async function profiledUpsert(
  services: ProfiledServices,
  request: DataRequest,
  body: unknown,
): Promise<DataResponse> {
  const profile = await selectProfile(services.profiles, request, 'POST');
  if (profile === undefined || !isRecord(body)) return upsertDocument(services, request, body);
  const stored = await replacedBy(services, request, body);
  const document = new WritableDocument(profile.name).merge(profile.policy, body, stored);
  return upsertDocument(services, request, document);
}

export async function profiledUpdate(
  services: ProfiledServices,
  request: DataRequest,
  routeId: string,
  body: unknown,
): Promise<DataResponse> {
  const profile = await selectProfile(services.profiles, request, 'PUT');
  const id = parseResourceId(routeId);
  if (profile === undefined || !isRecord(body) || id === undefined)
    return updateDocument(services, request, routeId, body);
  const existing = await services.store.get(request.resource, id);
  const stored = existing === undefined ? undefined : (JSON.parse(existing.bodyJson) as JsonRecord);
  // A missing item is the update's 404, not a creation.
  const document =
    existing === undefined ? body : new WritableDocument(profile.name).merge(profile.policy, body, stored);
  return updateDocument(services, request, routeId, document);
}
