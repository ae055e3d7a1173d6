// A readable profile applied to a representation: excluded members are left out at every level, and collection items
// that an item filter excludes are dropped. Members outside the model's shape (`id`, `_etag`, `link`…) stay.
import type { JsonObject, JsonValue } from '../model/validation/index.js';
import { passesFilter } from './item-filter.js';
import type { LevelPolicy } from './member-policy.js';

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function readableDocument(policy: LevelPolicy, node: JsonObject): JsonObject {
  const members = policy.shape.properties ?? {};
  const result: JsonObject = {};
  for (const [name, value] of Object.entries(node)) {
    if (!(name in members)) {
      result[name] = value;
      continue;
    }
    if (!policy.included.has(name)) continue;
    const child = policy.children.get(name);
    const filter = policy.filters.get(name);
    if (Array.isArray(value)) {
      const kept = filter === undefined ? value : value.filter((item) => passesFilter(filter, item));
      result[name] =
        child === undefined ? kept : kept.map((item) => (isObject(item) ? readableDocument(child, item) : item));
    } else result[name] = child !== undefined && isObject(value) ? readableDocument(child, value) : value;
  }
  return result;
}
