// Generates valid documents for any resource, deterministically from a seed: the minimal one (required members only)
// and the full one (every member, two distinct items per collection). References take their values from a resolver
// (e.g. documents created earlier) or are generated; key-unified values are made to agree.
import {
  compilePathCollector,
  compilePathGetter,
  getModelRegistry,
  type DescriptorUse,
  type JsonPath,
  type ModelRegistry,
  type PropertyShape,
  type ReferenceModel,
  type ResourceModel,
} from '../model/index.js';
import {
  compileUnifiedValuesReader,
  type JsonObject,
  type JsonValue,
  type ResourceDocument,
} from '../model/validation/index.js';
import { descriptorUri, namespaceValue, scalarValue, type ValueSite } from './scalar-values.js';

export interface ReferenceRequest {
  readonly reference: ReferenceModel;
  /** Concrete path of the reference object, e.g. `$.items[1].assessmentItemReference`. */
  readonly path: string;
  /** Position of the enclosing collection item (0 outside collections). */
  readonly ordinal: number;
}

/**
 * Supplies the target of a reference: any object holding the target's identity paths (typically the target document;
 * for abstract targets the abstract identity, e.g. `{ educationOrganizationId }`), or undefined to generate values.
 */
export type ReferenceResolver = (request: ReferenceRequest) => JsonObject | undefined;

export interface GenerateOptions {
  /** Same seed, same document; defaults to 1. */
  readonly seed?: number;
  /** Source of default descriptor values; defaults to the committed model. */
  readonly registry?: ModelRegistry;
}

type Mode = 'minimal' | 'full';

/** Items per collection in full documents (fewer when references resolve to the same identity). */
const FULL_COLLECTION_SIZE = 2;

interface Generation {
  readonly mode: Mode;
  readonly resource: ResourceModel;
  readonly refs: ReferenceResolver | undefined;
  readonly seed: number;
  readonly registry: ModelRegistry;
  readonly references: ReadonlyMap<JsonPath, ReferenceModel>;
  readonly descriptors: ReadonlyMap<JsonPath, DescriptorUse>;
}

/** A node's model path, concrete path, item position and the entity naming its namespace values. */
interface Site {
  readonly modelPath: JsonPath;
  readonly path: string;
  readonly ordinal: number;
  readonly entityName: string;
}

export function minimalDocument(
  resource: ResourceModel,
  refs?: ReferenceResolver,
  options?: GenerateOptions,
): ResourceDocument {
  return generate('minimal', resource, refs, options);
}

export function fullDocument(
  resource: ResourceModel,
  refs?: ReferenceResolver,
  options?: GenerateOptions,
): ResourceDocument {
  return generate('full', resource, refs, options);
}

function generate(
  mode: Mode,
  resource: ResourceModel,
  refs: ReferenceResolver | undefined,
  options: GenerateOptions | undefined,
): ResourceDocument {
  const generation: Generation = {
    mode,
    resource,
    refs,
    seed: options?.seed ?? 1,
    registry: options?.registry ?? getModelRegistry(),
    references: new Map(resource.references.map((reference) => [reference.path, reference])),
    descriptors: new Map(resource.descriptors.map((use) => [use.path, use])),
  };
  const site: Site = { modelPath: '$', path: '$', ordinal: 0, entityName: resource.resourceName };
  const document = objectValue(generation, resource.shape, site);
  unifyKeys(resource, document);
  removeDuplicateItems(resource, document);
  return document;
}

function isRequired(shape: PropertyShape): boolean {
  return shape.required === true || (shape.minItems ?? 0) > 0;
}

function objectValue(generation: Generation, shape: PropertyShape, site: Site): JsonObject {
  const reference = shape.kind === 'reference' ? generation.references.get(site.modelPath) : undefined;
  if (reference) return referenceValue(generation, shape, reference, site);
  const object: JsonObject = {};
  for (const [name, property] of Object.entries(shape.properties ?? {})) {
    if (generation.mode === 'minimal' && !isRequired(property)) continue;
    const member: Site = { ...site, modelPath: `${site.modelPath}.${name}`, path: `${site.path}.${name}` };
    const value = propertyValue(generation, name, property, member);
    if (value !== undefined) object[name] = value;
  }
  return object;
}

function propertyValue(generation: Generation, name: string, shape: PropertyShape, site: Site): JsonValue | undefined {
  if (shape.type === 'object') return objectValue(generation, shape, site);
  if (shape.type !== 'array') return leafValue(generation, name, shape, site);
  const count = generation.mode === 'full' ? FULL_COLLECTION_SIZE : Math.min(shape.minItems ?? 0, 1);
  if (count === 0) return undefined;
  const items: JsonValue[] = [];
  for (let ordinal = 0; ordinal < count; ordinal++) {
    const item: Site = { ...site, modelPath: `${site.modelPath}[*]`, path: `${site.path}[${ordinal}]`, ordinal };
    items.push(objectValue(generation, shape.items ?? { type: 'object' }, item));
  }
  return items;
}

function leafValue(generation: Generation, name: string, shape: PropertyShape, site: Site): JsonValue {
  const valueSite: ValueSite = { seed: generation.seed, key: site.modelPath, ordinal: site.ordinal };
  const descriptor = generation.descriptors.get(site.modelPath);
  if (descriptor) {
    // Default values ship for Ed-Fi descriptors only (keyed by name, which TPDM may reuse).
    const defaults =
      descriptor.descriptorNamespace === 'ed-fi' ? generation.registry.descriptorValuesOf(descriptor.descriptor) : [];
    return descriptorUri(descriptor.descriptor, descriptor.descriptorNamespace, defaults, valueSite);
  }
  if (name === 'namespace' && shape.type === 'string') {
    return namespaceValue(generation.resource.namespace, site.entityName, shape);
  }
  return scalarValue(name, shape, valueSite);
}

function referenceValue(
  generation: Generation,
  shape: PropertyShape,
  reference: ReferenceModel,
  site: Site,
): JsonObject {
  const target = generation.refs?.({ reference, path: site.path, ordinal: site.ordinal });
  const targetPaths = new Map(
    reference.fields.map((field) => [field.referencePath, field.targetIdentityPaths[0] ?? field.referencePath]),
  );
  const object: JsonObject = {};
  for (const [name, property] of Object.entries(shape.properties ?? {})) {
    const fieldPath = `${site.modelPath}.${name}`;
    const targetPath = targetPaths.get(fieldPath);
    const resolved =
      target && targetPath ? (compilePathGetter(targetPath)(target) as JsonValue | undefined) : undefined;
    const field: Site = {
      modelPath: fieldPath,
      path: `${site.path}.${name}`,
      ordinal: site.ordinal,
      entityName: reference.target,
    };
    object[name] = resolved ?? leafValue(generation, name, property, field);
  }
  return object;
}

/** Writes a value at a concrete path such as `$.items[1].assessmentItemReference.namespace`. */
function setAt(document: JsonObject, path: string, value: unknown): void {
  const steps = [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((match) => match[1] ?? Number(match[2]));
  let node = document as Record<string | number, unknown>;
  for (const step of steps.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[steps[steps.length - 1] as string | number] = value;
}

/** Each unification group takes one value: an identity member's if any, else the shallowest, else the first. */
function unifyKeys(resource: ResourceModel, document: JsonObject): void {
  const read = compileUnifiedValuesReader(resource);
  if (!read) return;
  const identity = new Set(resource.identityPaths);
  for (const values of read(document)) {
    const chosen = [...values].sort(
      (a, b) => Number(identity.has(b.memberPath)) - Number(identity.has(a.memberPath)) || a.depth - b.depth,
    )[0];
    if (!chosen) continue;
    for (const other of values) if (other.comparable !== chosen.comparable) setAt(document, other.path, chosen.value);
  }
}

/** Keeps the first item of each identity, as references resolved to one target can make items equal. */
function removeDuplicateItems(resource: ResourceModel, document: JsonObject): void {
  for (const collection of resource.collections) {
    const identity = collection.itemIdentity.map((path) => compilePathGetter(path));
    compilePathCollector(collection.path.slice(0, -'[*]'.length))(document, (items) => {
      if (!Array.isArray(items)) return;
      const keys = items.map((item) => JSON.stringify(identity.map((get) => get(item) ?? null)));
      const distinct = items.filter((_, index) => keys.indexOf(keys[index] as string) === index);
      items.splice(0, items.length, ...distinct);
    });
  }
}
