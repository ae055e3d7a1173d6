// A writable profile applied to a request body (contract §9.1): excluded members of the body are ignored, and the
// stored values of excluded members are kept (an item's by matching its identity, and stored items that an item
// filter hides); an item filter refuses a supplied item it excludes, and a profile that leaves out a required member
// makes creating the resource (or a new child item) impossible.
import type { PropertyShape } from '../model/index.js';
import { passesFilter } from './item-filter.js';
import type { LevelPolicy } from './member-policy.js';
import { profileProblems } from './profile-problems.js';

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Compares identifying values as the store does: case-insensitively, and without the `link` of stored references. */
function comparable(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(comparable);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => name !== 'link')
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, member]) => [name.toLowerCase(), comparable(member)]),
  );
}

function identityKey(policy: LevelPolicy, item: JsonRecord): string {
  return JSON.stringify(policy.itemIdentity.map((name) => comparable(item[name])));
}

function excludesRequired(policy: LevelPolicy): boolean {
  return Object.entries(policy.shape.properties ?? {}).some(
    ([name, member]: [string, PropertyShape]) => member.required === true && !policy.included.has(name),
  );
}

export class WritableDocument {
  constructor(private readonly profileName: string) {}

  /**
   * The document to validate and store: the body's included members, with the excluded ones of `stored` (undefined
   * when the body creates the resource).
   */
  merge(policy: LevelPolicy, body: unknown, stored: JsonRecord | undefined): unknown {
    if (!isRecord(body)) return body;
    if (stored === undefined && excludesRequired(policy)) throw profileProblems.createExcluded(this.profileName);
    return this.#level(policy, body, stored);
  }

  #level(policy: LevelPolicy, body: JsonRecord, stored: JsonRecord | undefined): JsonRecord {
    const members = policy.shape.properties ?? {};
    const result: JsonRecord = {};
    for (const [name, value] of Object.entries(body)) {
      if (!(name in members)) result[name] = value;
      else if (policy.included.has(name)) result[name] = this.#included(policy, name, value, stored?.[name]);
    }
    if (stored !== undefined) {
      for (const name of Object.keys(members)) {
        if (!policy.included.has(name) && stored[name] !== undefined) result[name] = stored[name];
      }
    }
    return result;
  }

  #included(policy: LevelPolicy, name: string, value: unknown, stored: unknown): unknown {
    const child = policy.children.get(name);
    const filter = policy.filters.get(name);
    if (Array.isArray(value) && child !== undefined) {
      const storedItems = Array.isArray(stored) ? stored.filter(isRecord) : [];
      const byIdentity = new Map(storedItems.map((item) => [identityKey(child, item), item]));
      const items = value.map((item) => {
        if (!isRecord(item)) return item;
        if (filter !== undefined && !passesFilter(filter, item))
          throw profileProblems.filteredItem(child.className, this.profileName);
        return this.#child(child, item, byIdentity.get(identityKey(child, item)));
      });
      // Items the filter hides from this client are not its to replace.
      const hidden = filter === undefined ? [] : storedItems.filter((item) => !passesFilter(filter, item));
      return [...items, ...hidden];
    }
    if (isRecord(value) && child !== undefined) return this.#child(child, value, isRecord(stored) ? stored : undefined);
    return value;
  }

  #child(policy: LevelPolicy, body: JsonRecord, stored: JsonRecord | undefined): JsonRecord {
    if (stored === undefined && excludesRequired(policy))
      throw profileProblems.createExcluded(this.profileName, policy.className);
    return this.#level(policy, body, stored);
  }
}
