// Query-by-example filters of GET lists (contract §3.2): every query field of the resource, bound to its type from
// the resource shape; unknown names are ignored, and default values (0, false, empty GUID, MinValue) filter nothing.
import { parseJsonPath, type PropertyShape, type ResourceModel } from '../model/index.js';
import type { ChangeVersionRange, QueryFilter } from '../store/store.js';
import { bindChangeVersions } from './change-versions.js';
import type { QueryParameters } from './data-request.js';
import { PAGING_PARAMETER_NAMES } from './paging.js';
import {
  bindBoolean,
  bindDate,
  bindDateTime,
  bindDecimal,
  bindInt32,
  bindInt64,
  bindResourceId,
  bindString,
  bindTime,
  type Binder,
  type QueryBindingErrors,
} from './query-binding.js';
import { EMPTY_RESOURCE_ID } from './resource-id.js';

type FilterValue = QueryFilter['value'];

interface FilterField {
  /** The query field name as the model spells it. */
  readonly name: string;
  readonly bind: Binder<FilterValue>;
  /** The CLR default of the field's type, which the ODS treats as "not specified". */
  readonly defaultValue: FilterValue | undefined;
}

/** Never a filter, whatever the resource (the correlation id travels in the query string too). */
const NON_FILTER_NAMES: ReadonlySet<string> = new Set([...PAGING_PARAMETER_NAMES, 'correlationid']);

const fieldsByResource = new WeakMap<ResourceModel, ReadonlyMap<string, FilterField>>();

function shapeAt(resource: ResourceModel, path: string): PropertyShape {
  let shape: PropertyShape | undefined = resource.shape;
  for (const { name } of parseJsonPath(path)) shape = shape?.properties?.[name];
  if (shape === undefined) throw new Error(`Query field path ${path} of ${resource.endpoint} is not in its shape`);
  return shape;
}

/** `id` has no shape (the server assigns it); every other field takes its type from its first path. */
function fieldOf(resource: ResourceModel, name: string, path: string): FilterField {
  if (path === '$.id') return { name, bind: bindResourceId, defaultValue: EMPTY_RESOURCE_ID };
  const shape = shapeAt(resource, path);
  switch (shape.type) {
    case 'integer':
      return { name, bind: shape.format === 'int64' ? bindInt64 : bindInt32, defaultValue: 0 };
    case 'number':
      return { name, bind: bindDecimal, defaultValue: 0 };
    case 'boolean':
      return { name, bind: bindBoolean, defaultValue: false };
    default:
      if (shape.format === 'date') return { name, bind: bindDate, defaultValue: '0001-01-01' };
      if (shape.format === 'date-time') return { name, bind: bindDateTime, defaultValue: '0001-01-01T00:00:00Z' };
      if (shape.format === 'time') return { name, bind: bindTime, defaultValue: '00:00:00' };
      return { name, bind: bindString, defaultValue: undefined };
  }
}

function filterFieldsOf(resource: ResourceModel): ReadonlyMap<string, FilterField> {
  let fields = fieldsByResource.get(resource);
  if (fields === undefined) {
    fields = new Map(
      Object.entries(resource.queryFields).map(([name, [path]]) => {
        if (path === undefined) throw new Error(`Query field ${name} of ${resource.endpoint} has no path`);
        return [name.toLowerCase(), fieldOf(resource, name, path)];
      }),
    );
    fieldsByResource.set(resource, fields);
  }
  return fields;
}

export function bindQueryFilters(
  resource: ResourceModel,
  query: QueryParameters,
  errors: QueryBindingErrors,
): QueryFilter[] {
  const fields = filterFieldsOf(resource);
  const filters: QueryFilter[] = [];
  for (const [name, text] of query) {
    const field = NON_FILTER_NAMES.has(name) ? undefined : fields.get(name);
    if (field === undefined) continue;
    const value = errors.bind(field.name, text, field.bind);
    if (value !== undefined && value !== field.defaultValue) filters.push({ field: field.name, value });
  }
  return filters;
}

/** What selects the items of a list or of its partitions: query-by-example filters and change-version bounds. */
export function bindSelection(
  resource: ResourceModel,
  query: QueryParameters,
  errors: QueryBindingErrors,
): { filters: QueryFilter[]; changeVersions: ChangeVersionRange | undefined } {
  return { filters: bindQueryFilters(resource, query, errors), changeVersions: bindChangeVersions(query, errors) };
}
