// The body an export writes for a stored document: the stored canonical JSON without the `link` objects the store adds
// to references (they carry this store's ids, which mean nothing to the store the export is loaded into).
import { compilePathCollector, type ResourceModel } from '../model/index.js';
import type { StoredDocument } from '../store/store.js';

export type ExportedBody = (document: StoredDocument) => string;

/** Compiles the body writer of one resource; a resource without references keeps the stored text as it is. */
export function compileExportedBody(resource: ResourceModel): ExportedBody {
  if (resource.references.length === 0) return (document) => document.bodyJson;
  const collectors = resource.references.map((reference) => compilePathCollector(reference.path));
  const dropLink = (reference: unknown): void => {
    if (typeof reference === 'object') delete (reference as Record<string, unknown>).link;
  };
  return (document) => {
    const body: unknown = JSON.parse(document.bodyJson);
    for (const collect of collectors) collect(body, dropLink);
    return JSON.stringify(body);
  };
}
