// GET of a composite (contract §9.2): a page of base documents, selected by the route's parent and the query's filter
// parameters, authorized as reads of the base resource (the list's SQL access filter), each built into its composite
// body; or one base document by id, authorized as a GET by id.
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../api/caller.js';
import type { DataServices, QueryParameters } from '../api/data-request.js';
import { jsonResponse, type DataResponse } from '../api/data-response.js';
import { ApiProblem } from '../api/problems.js';
import { bindBoolean, bindInt32, QueryBindingErrors } from '../api/query-binding.js';
import { bindQueryFilters } from '../api/query-filters.js';
import { readAuthorizedDocument } from '../api/read.js';
import { readableIdOf } from '../api/route-id.js';
import { readsFor } from '../api/snapshot.js';
import type { ListQuery, QueryFilter } from '../store/store.js';
import { combineSelections, selectBase, type BaseSelection } from './base-selection.js';
import { BodyBuilder } from './body-builder.js';
import type { CompiledComposite } from './compile.js';
import { CompositeReads, viewOf } from './composite-reads.js';
import { sameName } from './model-names.js';

export interface CompositeRequest {
  readonly composite: CompiledComposite;
  readonly caller: Caller;
  readonly headers: IncomingHttpHeaders;
}

/** A nested route's parent: the parameter its `{Resource.Id}` binds and the id in the URL. */
export interface CompositeParent {
  readonly parameter: string;
  readonly id: string;
}

/** The ODS default page size of composites, when `limit` is left out. */
export const DEFAULT_COMPOSITE_LIMIT = 25;
const MAX_COMPOSITE_LIMIT = 100;

function pageOf(query: QueryParameters): Pick<ListQuery, 'offset' | 'limit' | 'totalCount'> {
  const errors = new QueryBindingErrors();
  const limitText = query.get('limit');
  const limit = limitText === undefined || limitText === '' ? DEFAULT_COMPOSITE_LIMIT : bindInt32(limitText);
  if (typeof limit !== 'number' || limit < 1 || limit > MAX_COMPOSITE_LIMIT) {
    throw new ApiProblem('parameterValidationFailed', {
      detail: 'The limit parameter was incorrect.',
      errors: ['Limit must be omitted or set to a value between 1 and 100.'],
    });
  }
  const offset = errors.bind('offset', query.get('offset'), bindInt32) ?? 0;
  const totalCount = errors.bind('totalCount', query.get('totalcount'), bindBoolean) ?? false;
  errors.throwIfAny();
  if (offset < 0) throw new ApiProblem('parameterValidationFailed', { errors: ['Offset cannot be a negative value.'] });
  return { offset, limit, totalCount };
}

/** The query's filter parameters (those without a `.`), each bound to its field's type. */
function queryFilterValues(composite: CompiledComposite, query: QueryParameters): [string, QueryFilter][] {
  const errors = new QueryBindingErrors();
  const bound: [string, QueryFilter][] = [];
  for (const parameter of composite.parameters) {
    if (parameter.name.includes('.') || parameter.compares === 'id') continue;
    const text = query.get(parameter.name.toLowerCase());
    if (text === undefined) continue;
    const { field } = parameter.compares;
    const [filter] = bindQueryFilters(parameter.resource, new Map([[field.toLowerCase(), text]]), errors);
    if (filter !== undefined) bound.push([parameter.name, filter]);
  }
  errors.throwIfAny();
  return bound;
}

async function selectionOf(
  reads: CompositeReads,
  composite: CompiledComposite,
  query: QueryParameters,
  parent: CompositeParent | undefined,
): Promise<BaseSelection> {
  const values: [string, string | QueryFilter][] = queryFilterValues(composite, query);
  if (parent !== undefined) values.push([parent.parameter, readableIdOf(parent.id)]);
  const selections = await Promise.all(
    values.map(([name, value]) => {
      const plan = composite.parameters.find((parameter) => sameName(parameter.name, name))!;
      return selectBase(reads, plan, value);
    }),
  );
  return combineSelections(selections);
}

/** Whether the composite can be reached under this parent (it has a parameter of the parent's name). */
export function servesParent(composite: CompiledComposite, parameter: string): boolean {
  return composite.parameters.some((candidate) => sameName(candidate.name, parameter));
}

export async function readCompositeList(
  services: DataServices,
  request: CompositeRequest,
  query: QueryParameters,
  parent?: CompositeParent,
): Promise<DataResponse> {
  const { composite } = request;
  const page = pageOf(query);
  const { filter } = await services.authorize({ action: 'Read', resource: composite.base, caller: request.caller });
  const storeReads = await readsFor(services.store, request);
  const reads = new CompositeReads(storeReads);
  const selection = await selectionOf(reads, composite, query, parent);
  const headers: Record<string, string> = {};
  if (selection.documentIds?.length === 0) {
    if (page.totalCount) headers['Total-Count'] = '0';
    return jsonResponse(200, '[]', headers);
  }
  const { items, totalCount } = await storeReads.list(composite.base, {
    ...page,
    filters: selection.filters,
    ...(selection.documentIds === undefined ? {} : { documentIds: selection.documentIds }),
    ...(filter === undefined ? {} : { access: filter }),
  });
  if (totalCount !== undefined) headers['Total-Count'] = String(totalCount);
  const builder = new BodyBuilder(reads);
  const bodies = [];
  for (const item of items) bodies.push(await builder.document(composite.members, viewOf(item)));
  return jsonResponse(200, JSON.stringify(bodies), headers);
}

export async function readCompositeItem(
  services: DataServices,
  request: CompositeRequest,
  routeId: string,
): Promise<DataResponse> {
  const { composite } = request;
  const stored = await readAuthorizedDocument(services, { ...request, resource: composite.base }, routeId);
  const reads = new CompositeReads(await readsFor(services.store, request));
  const body = await new BodyBuilder(reads).document(composite.members, viewOf(stored));
  return jsonResponse(200, JSON.stringify(body));
}
