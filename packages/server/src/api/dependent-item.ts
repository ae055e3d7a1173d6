// The detail of a 409 dependent-item-exists as the ODS words it (contract §6.4): it names the entity (table) that
// holds the reference and, for a child entity, its parent: the aggregate root, the enclosing collection item, or the
// types derived from an abstract base (whose collections every derived resource inherits).
import type { JsonPath, ModelRegistry, PropertyShape, ResourceModel } from '../model/index.js';

const DETAIL = 'The requested action cannot be performed because this item is referenced by an existing';

/** Where a referrer holds its reference to the deleted item: the root, or a collection (outermost first). */
interface Holder {
  readonly root: ResourceModel;
  /** The JSON paths of the collections enclosing the reference, e.g. `$.addresses[*]`, `$.addresses[*].periods[*]`. */
  readonly collections: readonly JsonPath[];
}

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function enclosingCollections(path: JsonPath): JsonPath[] {
  const collections: JsonPath[] = [];
  for (let end = path.indexOf('[*]'); end !== -1; end = path.indexOf('[*]', end + 3))
    collections.push(path.slice(0, end + 3));
  return collections;
}

/** The paths in `referrer` that can hold a reference to an item of `deleted` (its descriptor or its document). */
function referencePaths(referrer: ResourceModel, deleted: ResourceModel): JsonPath[] {
  if (deleted.isDescriptor) {
    return referrer.descriptors.filter((use) => use.descriptor === deleted.resourceName).map((use) => use.path);
  }
  const superclass = deleted.superclass?.resourceName;
  return referrer.references
    .filter(({ target }) => target === deleted.resourceName || target === superclass)
    .map((reference) => reference.path);
}

/** The array shape at a collection path (`$.a[*].b[*]`). */
function arrayShapeAt(root: PropertyShape, collection: JsonPath): PropertyShape | undefined {
  const segments = collection.slice(2).split('.');
  let shape: PropertyShape | undefined = root;
  for (const [index, segment] of segments.entries()) {
    const property: PropertyShape | undefined = shape?.properties?.[segment.replace('[*]', '')];
    if (index === segments.length - 1) return property;
    shape = segment.endsWith('[*]') ? property?.items : property;
  }
  return undefined;
}

/**
 * The ODS entity of a collection's items. A collection inherited from the abstract base is named after the base
 * (`EducationOrganizationAddress`), which the imported child-table name, flattened onto the derived resource
 * (`SchoolAddress`), is not.
 */
function collectionEntityName(root: ResourceModel, collection: JsonPath): string | undefined {
  const entityName = root.collections.find((candidate) => candidate.path === collection)?.entityName;
  if (entityName === undefined) return undefined;
  const base = root.superclass?.resourceName;
  const shape = arrayShapeAt(root.shape, collection);
  const jsonName = collection.slice(collection.lastIndexOf('.') + 1).replace('[*]', '');
  const memberName = shape?.memberName ?? capitalized(jsonName);
  if (base === undefined || !memberName.startsWith(base) || !entityName.startsWith(root.resourceName))
    return entityName;
  const own = entityName.slice(root.resourceName.length);
  return own.startsWith(base) ? own : `${base}${own}`;
}

function holderOf(registry: ModelRegistry, deleted: ResourceModel, referrerName: string): Holder | undefined {
  const root = registry.getResourceByName(referrerName);
  if (root === undefined) return undefined;
  const paths = referencePaths(root, deleted);
  // Any reference at the root names the root; otherwise the first collection that can hold one.
  const path = paths.find((candidate) => !candidate.includes('[*]')) ?? paths[0];
  return { root, collections: path === undefined ? [] : enclosingCollections(path) };
}

/** The detail naming the referrer `referrerName` (a resource name) that keeps the `deleted` item from going. */
export function dependentItemDetail(registry: ModelRegistry, deleted: ResourceModel, referrerName: string): string {
  const holder = holderOf(registry, deleted, referrerName);
  const innermost = holder?.collections.at(-1);
  const entity =
    holder === undefined || innermost === undefined ? undefined : collectionEntityName(holder.root, innermost);
  if (holder === undefined || innermost === undefined || entity === undefined)
    return `${DETAIL} '${referrerName}' item.`;
  const { root, collections } = holder;
  if (collections.length > 1) {
    const parent = collectionEntityName(root, collections.at(-2)!) ?? root.resourceName;
    return `${DETAIL} '${entity}' item contained within an '${parent}' resource item.`;
  }
  const base = root.superclass?.resourceName;
  if (base !== undefined && entity.startsWith(base)) {
    const derived = registry
      .subclassesOf(base)
      .map((subclass) => subclass.resourceName)
      .sort();
    return `${DETAIL} '${entity}' item contained within a resource item of one of the following types: ${derived.join(', ')}.`;
  }
  return `${DETAIL} '${entity}' item contained within an '${root.resourceName}' resource item.`;
}
