// Lists a resource's collections from its shape, with item uniqueness keys from the relational model (ed-fi)
// or ApiSchema array-uniqueness constraints (TPDM).
import type { CollectionModel, JsonPath, PropertyShape } from '../types.js';
import type { DerivedResource, DerivedUniquenessConstraint } from './source-types.js';
import { compareText, sortByPath } from './ordering.js';

export interface CollectionKey {
  itemIdentity: JsonPath[];
  entityName?: string;
}

/** Splits `$.a[*].b[*].c.d` into the collection `$.a[*].b[*]` and the item-relative `$.c.d`. */
function splitAtLastCollection(path: JsonPath): { collection: JsonPath; relative: JsonPath } {
  const index = path.lastIndexOf('[*]');
  if (index < 0) throw new Error(`Uniqueness path outside any collection: ${path}`);
  return { collection: path.slice(0, index + 3), relative: '$' + path.slice(index + 3) };
}

function addConstraintPaths(keys: Map<JsonPath, CollectionKey>, paths: JsonPath[]): void {
  for (const path of paths) {
    const { collection, relative } = splitAtLastCollection(path);
    const key = keys.get(collection) ?? { itemIdentity: [] };
    key.itemIdentity.push(relative);
    keys.set(collection, key);
  }
}

function uniquenessKeys(constraints: DerivedUniquenessConstraint[], keys: Map<JsonPath, CollectionKey>): void {
  for (const constraint of constraints) {
    addConstraintPaths(keys, constraint.paths ?? []);
    for (const nested of constraint.nestedConstraints ?? []) {
      addConstraintPaths(
        keys,
        nested.paths.map((relative) => nested.basePath + relative.slice(1)),
      );
    }
  }
}

/** Collection path → item key, from each source resource that contributes to the document. */
export function collectionKeys(sources: DerivedResource[]): Map<JsonPath, CollectionKey> {
  const keys = new Map<JsonPath, CollectionKey>();
  for (const source of sources) {
    for (const collection of source.collections ?? []) {
      if (!collection.path.endsWith('[*]')) continue;
      keys.set(collection.path, {
        itemIdentity: [...collection['itemIdentity(relative)']],
        entityName: collection.table.slice(collection.table.indexOf('.') + 1),
      });
    }
    uniquenessKeys(source.arrayUniquenessConstraints ?? [], keys);
  }
  return keys;
}

/**
 * An item that is only a reference is keyed by the reference's fields (the ODS child-table key), although TPDM's
 * ApiSchema lists no uniqueness constraint for it (credentials `_ext.tpdm.studentAcademicRecords`).
 */
function singleReferenceKey(item: PropertyShape): JsonPath[] {
  const members = Object.entries(item.properties ?? {});
  const [name, reference] = members[0] ?? [];
  if (members.length !== 1 || !reference || reference.kind !== 'reference') return [];
  return Object.keys(reference.properties ?? {}).map((field) => `$.${name}.${field}`);
}

export function collectionsOfShape(shape: PropertyShape, keys: Map<JsonPath, CollectionKey>): CollectionModel[] {
  const collections: CollectionModel[] = [];
  const walk = (node: PropertyShape, path: JsonPath): void => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      if (child.type === 'array' && child.items) {
        const itemPath = `${path}.${name}[*]`;
        const key = keys.get(itemPath);
        const itemIdentity = key?.itemIdentity.length ? key.itemIdentity : singleReferenceKey(child.items);
        collections.push({
          path: itemPath,
          ...(key?.entityName ? { entityName: key.entityName } : {}),
          itemIdentity: [...itemIdentity].sort(compareText),
          minItems: child.minItems ?? 0,
        });
        walk(child.items, itemPath);
      } else if (child.type === 'object') {
        walk(child, `${path}.${name}`);
      }
    }
  };
  walk(shape, '$');
  const unknown = [...keys.keys()].filter((path) => !collections.some((collection) => collection.path === path));
  if (unknown.length > 0)
    throw new Error(`Uniqueness keys for collections missing from the shape: ${unknown.join(', ')}`);
  return sortByPath(collections);
}
