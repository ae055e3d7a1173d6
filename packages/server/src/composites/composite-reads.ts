// What one composite request reads beyond its base page, through the same reads (live or snapshot): documents by id,
// each read once per request however many items refer to it, and every document matching filters.
import type { ResourceModel } from '../model/index.js';
import type { QueryFilter, SnapshotReads } from '../store/store.js';

export type JsonObject = Readonly<Record<string, unknown>>;

/** A stored document with its body parsed. */
export interface DocumentView {
  readonly id: string;
  readonly body: JsonObject;
}

/** Rows per statement when reading every match; big enough for a school's enrollments in a few statements. */
const READ_ALL_PAGE = 500;

export function viewOf(document: { readonly id: string; readonly bodyJson: string }): DocumentView {
  return { id: document.id, body: JSON.parse(document.bodyJson) as JsonObject };
}

export class CompositeReads {
  readonly #documents = new Map<string, Promise<DocumentView | undefined>>();

  constructor(private readonly reads: Pick<SnapshotReads, 'get' | 'list'>) {}

  document(resource: ResourceModel, id: string): Promise<DocumentView | undefined> {
    let found = this.#documents.get(id);
    if (found === undefined) {
      found = this.reads.get(resource, id).then((document) => document && viewOf(document));
      this.#documents.set(id, found);
    }
    return found;
  }

  async all(resource: ResourceModel, filters: readonly QueryFilter[]): Promise<DocumentView[]> {
    const views: DocumentView[] = [];
    for (let offset = 0; ; offset += READ_ALL_PAGE) {
      const { items } = await this.reads.list(resource, { filters, offset, limit: READ_ALL_PAGE, totalCount: false });
      views.push(...items.map(viewOf));
      if (items.length < READ_ALL_PAGE) return views;
    }
  }
}

/** The value at member steps of a JSON object; undefined where a step is missing. */
export function valueAt(object: JsonObject, steps: readonly string[]): unknown {
  let value: unknown = object;
  for (const step of steps) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as JsonObject)[step];
  }
  return value;
}

/** Equality filters from the values at each key's steps; undefined when one is absent or not a scalar. */
export function filtersFrom(
  object: JsonObject,
  keys: readonly { readonly field: string; readonly steps: readonly string[] }[],
): QueryFilter[] | undefined {
  const filters: QueryFilter[] = [];
  for (const { field, steps } of keys) {
    const value = valueAt(object, steps);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    filters.push({ field, value });
  }
  return filters;
}

/** The resource id and resource of a reference's `link` (`/ed-fi/schools/{id}`). */
export function linkOf(reference: JsonObject): { id: string; namespace: string; resourceName: string } | undefined {
  const link = reference.link as { rel?: unknown; href?: unknown } | undefined;
  if (typeof link?.href !== 'string' || typeof link.rel !== 'string') return undefined;
  const [, namespace, , id] = link.href.split('/');
  return namespace && id ? { id, namespace, resourceName: link.rel } : undefined;
}
