// Collection item filters (contract §9.1): an item passes when its descriptor's code value, or its whole URI, is among
// the filter's values (IncludeOnly), or is not (ExcludeOnly).
import type { ItemFilterPolicy } from './member-policy.js';

export function passesFilter(filter: ItemFilterPolicy, item: unknown): boolean {
  const value =
    item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[filter.member] : undefined;
  const matches =
    typeof value === 'string' &&
    (filter.values.has(value.toLowerCase()) || filter.values.has(value.slice(value.indexOf('#') + 1).toLowerCase()));
  return filter.mode === 'IncludeOnly' ? matches : !matches;
}
