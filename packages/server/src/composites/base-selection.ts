// Which base documents a composite's parameters select (contract §9.2): each parameter's filter path is walked back
// from the value to the base resource. Filters carry over a reference while the filtered field is one of its key
// fields (a school id filters sessions, course offerings and sections alike, down to one SQL filter on the base);
// otherwise the documents are read and their references or keys lead one hop further.
import type { ResourceModel } from '../model/index.js';
import type { QueryFilter } from '../store/store.js';
import {
  filtersFrom,
  linkOf,
  valueAt,
  type CompositeReads,
  type DocumentView,
  type JsonObject,
} from './composite-reads.js';
import { queryFieldsPathOf } from './model-names.js';
import type { Hop, ParameterPlan } from './parameter-plan.js';

/** What selects base documents: filters on the base resource, and (when a path led through documents) their ids. */
export interface BaseSelection {
  readonly filters: readonly QueryFilter[];
  /** Undefined: no restriction by id; empty: nothing can match. */
  readonly documentIds?: readonly string[];
}

/** Documents of one resource on the path: as alternatives of filters (OR of ANDs), or read. */
type Selected =
  | { readonly kind: 'filters'; readonly alternatives: readonly (readonly QueryFilter[])[] }
  | { readonly kind: 'documents'; readonly documents: readonly DocumentView[] }
  | { readonly kind: 'ids'; readonly ids: readonly string[] };

/** Filters on `hop.to` restated on `hop.from` when each filtered field is a key field `from` carries in its reference. */
function carriedOver(hop: Hop, filters: readonly QueryFilter[]): QueryFilter[] | undefined {
  if (hop.kind !== 'follow') return undefined;
  const carried: QueryFilter[] = [];
  for (const filter of filters) {
    const path = queryFieldsPathOf(hop.to, filter.field);
    const key = hop.keys.find((candidate) => path !== undefined && candidate.steps.join('.') === path);
    if (key === undefined) return undefined;
    carried.push({ field: key.field, value: filter.value });
  }
  return carried;
}

async function documentsOf(
  reads: CompositeReads,
  resource: ResourceModel,
  selected: Selected,
): Promise<DocumentView[]> {
  if (selected.kind === 'documents') return [...selected.documents];
  if (selected.kind === 'ids') {
    const found = await Promise.all(selected.ids.map((id) => reads.document(resource, id)));
    return found.filter((document): document is DocumentView => document !== undefined);
  }
  const lists = await Promise.all(selected.alternatives.map((filters) => reads.all(resource, filters)));
  return lists.flat();
}

/** One hop back, from documents of `hop.to` to documents of `hop.from`. */
async function stepBack(reads: CompositeReads, hop: Hop, selected: Selected): Promise<Selected> {
  if (selected.kind === 'filters') {
    const carried = selected.alternatives.map((filters) => carriedOver(hop, filters));
    if (carried.every((filters) => filters !== undefined)) return { kind: 'filters', alternatives: carried };
  }
  const documents = await documentsOf(reads, hop.to, selected);
  if (hop.kind === 'referrers') {
    const ids = documents.flatMap((document) => {
      const reference = valueAt(document.body, hop.steps);
      const link = reference && typeof reference === 'object' ? linkOf(reference as JsonObject) : undefined;
      return link ? [link.id] : [];
    });
    return { kind: 'ids', ids: [...new Set(ids)] };
  }
  // A document whose key is incomplete (an optional reference left out) selects nothing.
  const alternatives = documents.map((document) => filtersFrom(document.body, hop.keys));
  return { kind: 'filters', alternatives: alternatives.filter((filters) => filters !== undefined) };
}

/** The base documents one parameter selects; `value` is a resource id or a filter already bound to its type. */
export async function selectBase(
  reads: CompositeReads,
  plan: ParameterPlan,
  value: string | QueryFilter,
): Promise<BaseSelection> {
  let selected: Selected =
    typeof value === 'string' ? { kind: 'ids', ids: [value] } : { kind: 'filters', alternatives: [[value]] };
  for (const hop of [...plan.hops].reverse()) {
    selected = await stepBack(reads, hop, selected);
    if (selected.kind !== 'filters' && (selected.kind === 'ids' ? selected.ids : selected.documents).length === 0)
      return { filters: [], documentIds: [] };
  }
  if (selected.kind === 'filters' && selected.alternatives.length === 1) return { filters: selected.alternatives[0]! };
  if (selected.kind === 'ids') return { filters: [], documentIds: selected.ids };
  const base = plan.hops[0]?.from;
  if (base === undefined) throw new Error(`Parameter ${plan.name} selects documents without a path`);
  return { filters: [], documentIds: (await documentsOf(reads, base, selected)).map((document) => document.id) };
}

/** Several parameters together: every filter, and the ids all of them allow. */
export function combineSelections(selections: readonly BaseSelection[]): BaseSelection {
  const filters = selections.flatMap((selection) => selection.filters);
  let documentIds: readonly string[] | undefined;
  for (const selection of selections) {
    if (selection.documentIds === undefined) continue;
    const allowed = new Set(selection.documentIds);
    documentIds = documentIds === undefined ? [...allowed] : documentIds.filter((id) => allowed.has(id));
  }
  return documentIds === undefined ? { filters } : { filters, documentIds };
}
