// Resource representations (contract §3.9): `id` first, the stored body, then `_etag` and `_lastModifiedDate`, put
// together as text around the stored JSON so reads never parse it.
import type { StoredDocument } from '../store/store.js';

/** The stored body is a JSON object; its members sit between the first and the last character. */
function membersOf(bodyJson: string): string {
  return bodyJson.slice(1, -1).trim();
}

export function renderDocument(document: StoredDocument): string {
  const members = membersOf(document.bodyJson);
  return (
    `{"id":${JSON.stringify(document.id)}${members === '' ? '' : `,${members}`}` +
    `,"_etag":${JSON.stringify(document.etag)},"_lastModifiedDate":${JSON.stringify(document.lastModifiedDate)}}`
  );
}

export function renderDocuments(documents: readonly StoredDocument[]): string {
  return `[${documents.map(renderDocument).join(',')}]`;
}
