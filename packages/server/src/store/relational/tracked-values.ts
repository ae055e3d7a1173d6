// What a tracked change keeps of a document (contract §4.4): its natural key under the flattened query-parameter
// names, and its securable values. Compiled once per resource from the model; dialect-neutral.
import {
  compilePathGetter,
  type DocumentSecurables,
  type JsonPath,
  type ModelRegistry,
  type PathGetter,
  type ResourceModel,
} from '../../model/index.js';
import type { KeyValues, TrackedSecurables } from '../store.js';

type KeyValuesReader = (body: unknown) => KeyValues;

const readers = new WeakMap<ResourceModel, KeyValuesReader>();

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The query-parameter name of an identity path. Unified keys share one name; where the model lists a path under
 * several names, the role-named one wins for the reference it was named after (`gradingPeriodReference.schoolYear` is
 * `gradingPeriodSchoolYear`), the plain one otherwise. Paths the model leaves out keep their last segment.
 */
function keyNameOf(resource: ResourceModel, path: JsonPath): string {
  const segments = path.slice(2).split('.');
  const leaf = segments[segments.length - 1]!;
  const candidates = Object.entries(resource.queryFields)
    .filter(([, paths]) => paths.includes(path))
    .map(([name]) => name);
  if (candidates.length === 1) return candidates[0]!;
  const reference = segments.length > 1 ? segments[0]!.replace(/Reference$/, '') : undefined;
  const roleNamed = reference === undefined ? undefined : `${reference}${capitalized(leaf)}`;
  if (roleNamed !== undefined && candidates.includes(roleNamed)) return roleNamed;
  return candidates.includes(leaf) || candidates.length === 0 ? leaf : candidates[0]!;
}

function compileKeyValuesReader(resource: ResourceModel): KeyValuesReader {
  const byName = new Map<string, PathGetter[]>();
  for (const path of resource.identityPaths) {
    const name = keyNameOf(resource, path);
    byName.set(name, [...(byName.get(name) ?? []), compilePathGetter(path)]);
  }
  const fields = [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return (body) => {
    const values: Record<string, string | number | boolean> = {};
    for (const [name, getters] of fields) {
      for (const get of getters) {
        const value = get(body);
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          values[name] = value;
          break;
        }
      }
    }
    return values;
  };
}

/** The natural key of a stored body, names sorted. */
export function keyValuesOf(resource: ResourceModel, body: unknown): KeyValues {
  let read = readers.get(resource);
  if (read === undefined) {
    read = compileKeyValuesReader(resource);
    readers.set(resource, read);
  }
  return read(body);
}

function present<T>(values: readonly unknown[], type: 'string' | 'number'): T[] {
  return values.filter((value) => typeof value === type) as T[];
}

export function trackedSecurablesOf(securables: DocumentSecurables): TrackedSecurables {
  const educationOrganizationIds: Record<string, number> = {};
  for (const { name, value } of securables.educationOrganizations)
    if (typeof value === 'number') educationOrganizationIds[name] = value;
  return {
    educationOrganizationIds,
    studentUniqueIds: present(securables.students, 'string'),
    staffUniqueIds: present(securables.staffs, 'string'),
    contactUniqueIds: present(securables.contacts, 'string'),
    namespaces: present(securables.namespaces, 'string'),
  };
}

/** A document as a tracked change (deletion or key change) remembers it: as it was before the change, owner included. */
export interface TrackedDocument {
  readonly resourceId: number;
  readonly uuid: string;
  readonly identityKey: string;
  readonly keyValues: KeyValues;
  readonly securables: TrackedSecurables;
}

/** The key values and securables of a stored row's body, and the ownership token the document was created under. */
export function trackedDocumentOf(
  registry: ModelRegistry,
  resource: ResourceModel,
  resourceId: number,
  row: { readonly uuid: string; readonly identity_key: string; readonly body: string },
  ownershipTokenId: number | undefined,
): TrackedDocument {
  const body: unknown = JSON.parse(row.body);
  const securables = trackedSecurablesOf(registry.accessorsOf(resource).securablesOf(body));
  return {
    resourceId,
    uuid: row.uuid,
    identityKey: row.identity_key,
    keyValues: keyValuesOf(resource, body),
    securables: ownershipTokenId === undefined ? securables : { ...securables, ownershipTokenId },
  };
}

/** The stored text of a tracked change (after its version): resource_id, kind, uuid, old identity key, old key, new key, old securables. */
export type TrackedChangeValues = [number, 'D' | 'K', string, string, string, string | null, string];

/** A deletion (no new key) or a key change, as a `tracked_change` row stores it. */
export function trackedChangeValues(document: TrackedDocument, newKeyValues?: KeyValues): TrackedChangeValues {
  return [
    document.resourceId,
    newKeyValues === undefined ? 'D' : 'K',
    document.uuid,
    document.identityKey,
    JSON.stringify(document.keyValues),
    newKeyValues === undefined ? null : JSON.stringify(newKeyValues),
    JSON.stringify(document.securables),
  ];
}
