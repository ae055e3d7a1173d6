// Builds the JSON Schema Ajv compiles for a resource's canonical documents: standard keywords for what JSON Schema can
// say, the Ed-Fi keywords of `ajv-keywords.ts` for the rest, and every message precomputed from the model's names.
// Nested objects are shared schemas referenced by id (compiled as separate functions, once for every resource holding
// them) so no generated function outgrows V8's optimiser.
import type { SchemaObject } from 'ajv';
import type { CollectionModel, DescriptorUse, JsonPath, PropertyShape, ResourceModel } from '../index.js';
import {
  type FullyDefinedReferenceRule,
  type NonDefaultRule,
  type TextRule,
  type UniqueItemIdentityRule,
  annotations,
} from './ajv-keywords.js';
import { memberName } from './member-names.js';
import { messages } from './messages.js';
import type { SharedDefinitions } from './shared-definitions.js';

/** Where a shape node sits: its model path and the facts inherited from enclosing nodes. */
interface NodePlace {
  readonly path: JsonPath;
  readonly insideReference: boolean;
  /** The node is a direct member of a collection item's identity. */
  readonly isItemIdentityMember: boolean;
}

interface ModelIndex {
  readonly collections: ReadonlyMap<JsonPath, CollectionModel>;
  readonly descriptors: ReadonlyMap<JsonPath, DescriptorUse>;
  /** Nested object schemas, referenced by id. */
  readonly definitions: SharedDefinitions;
}

/** The resource's document schema; its nested objects are in `definitions`, which must reach the compiler first. */
export function buildDocumentSchema(resource: ResourceModel, definitions: SharedDefinitions): SchemaObject {
  const index: ModelIndex = {
    collections: new Map(resource.collections.map((collection) => [collection.path, collection])),
    descriptors: new Map(resource.descriptors.map((use) => [use.path, use])),
    definitions,
  };
  const root: NodePlace = { path: '$', insideReference: false, isItemIdentityMember: false };
  return objectSchema(resource.shape, root, index, new Set());
}

function objectSchema(
  shape: PropertyShape,
  place: NodePlace,
  index: ModelIndex,
  itemIdentityMembers: ReadonlySet<string>,
): SchemaObject {
  const entries = Object.entries(shape.properties ?? {});
  const properties: Record<string, SchemaObject> = {};
  for (const [name, property] of entries) {
    const member: NodePlace = {
      path: `${place.path}.${name}`,
      insideReference: place.insideReference || property.kind === 'reference',
      isItemIdentityMember: itemIdentityMembers.has(name),
    };
    properties[name] = propertySchema(name, property, member, index);
  }
  const schema: SchemaObject = { type: 'object', properties };
  if (shape.kind === 'reference') {
    const rule: FullyDefinedReferenceRule = {
      referenceName: memberName(place.path.slice(place.path.lastIndexOf('.') + 1), shape),
      fields: entries.map(([name, property]) => ({
        name,
        memberName: memberName(name, property),
        isNumber: property.type === 'integer',
      })),
    };
    schema.fullyDefinedReference = rule;
  } else {
    const required = entries.filter(([, property]) => isRequired(property)).map(([name]) => name);
    if (required.length > 0) schema.required = required;
  }
  return schema;
}

function isRequired(shape: PropertyShape): boolean {
  return shape.required === true || (shape.minItems ?? 0) > 0;
}

function propertySchema(name: string, shape: PropertyShape, place: NodePlace, index: ModelIndex): SchemaObject {
  const schema = nodeSchema(name, shape, place, index);
  schema[annotations.missing] = missingMessage(name, shape);
  return schema;
}

function nodeSchema(name: string, shape: PropertyShape, place: NodePlace, index: ModelIndex): SchemaObject {
  switch (shape.type) {
    case 'object':
      return index.definitions.refTo(objectSchema(shape, place, index, new Set()));
    case 'array':
      return arraySchema(name, shape, place, index);
    case 'string':
      return stringSchema(name, shape, place, index);
    case 'boolean':
      return { type: 'boolean' };
    default:
      return numericSchema(name, shape, place);
  }
}

function missingMessage(name: string, shape: PropertyShape): string {
  switch (shape.type) {
    case 'array':
      return messages.collectionRequired(memberName(name, shape));
    case 'boolean':
    case 'number':
      return messages.valueRequired;
    case 'integer':
      return shape.isIdentity ? messages.required(memberName(name, shape)) : messages.valueRequired;
    default:
      return messages.required(memberName(name, shape));
  }
}

function arraySchema(name: string, shape: PropertyShape, place: NodePlace, index: ModelIndex): SchemaObject {
  const itemPath = `${place.path}[*]`;
  const collection = index.collections.get(itemPath);
  const displayName = memberName(name, shape);
  const itemIdentity = collection?.itemIdentity ?? [];
  const itemPlace: NodePlace = { path: itemPath, insideReference: false, isItemIdentityMember: false };
  const identityMembers = new Set(itemIdentity.map((path) => path.slice(2)).filter((member) => !member.includes('.')));
  const items = index.definitions.refTo(
    objectSchema(shape.items ?? { type: 'object' }, itemPlace, index, identityMembers),
  );
  const schema: SchemaObject = { type: 'array', items };
  if ((shape.minItems ?? 0) > 0) {
    schema.minItems = shape.minItems;
    schema[annotations.minItems] = messages.collectionRequired(displayName);
  }
  if (itemIdentity.length > 0) {
    const rule: UniqueItemIdentityRule = {
      collectionName: displayName,
      identity: itemIdentity.map((path) => ({
        steps: path.slice(2).split('.'),
        ignoreCase: index.descriptors.has(`${itemPath}${path.slice(1)}`),
      })),
    };
    schema.uniqueItemIdentity = rule;
  }
  return schema;
}

function stringSchema(name: string, shape: PropertyShape, place: NodePlace, index: ModelIndex): SchemaObject {
  const member = memberName(name, shape);
  const schema: SchemaObject = { type: 'string' };
  const enforcesPresence = shape.required === true && !place.insideReference;
  if (shape.format !== undefined) {
    if (shape.format === 'date' && enforcesPresence) {
      const rule: NonDefaultRule = { defaultValue: '0001-01-01', message: messages.required(member) };
      schema.nonDefault = rule;
    }
    return schema;
  }
  const rule: TextRule = { dangerousMessage: messages.dangerousText(member) };
  if (enforcesPresence) rule.requiredMessage = messages.requiredNotEmpty(member);
  if (shape.maxLength !== undefined) {
    rule.length = {
      min: shape.minLength ?? 0,
      max: shape.maxLength,
      message:
        shape.minLength === undefined
          ? messages.maxLength(member, shape.maxLength)
          : messages.lengthBetween(member, shape.minLength, shape.maxLength),
    };
  }
  if (shape.isIdentity || place.insideReference || place.isItemIdentityMember) {
    rule.whitespaceMessage = messages.noWhitespace(member);
  }
  const descriptor = index.descriptors.get(place.path);
  if (descriptor) rule.descriptor = descriptor.descriptor;
  schema.text = rule;
  return schema;
}

function numericSchema(name: string, shape: PropertyShape, place: NodePlace): SchemaObject {
  const member = memberName(name, shape);
  const schema: SchemaObject = { type: shape.type };
  if (shape.minimum !== undefined) schema.minimum = shape.minimum;
  if (shape.maximum !== undefined) schema.maximum = shape.maximum;
  const rangeMessage = describeRange(member, shape.minimum, shape.maximum);
  if (rangeMessage !== undefined) schema[annotations.range] = rangeMessage;
  if (shape.type === 'integer' && shape.isIdentity && shape.required && !place.insideReference) {
    const rule: NonDefaultRule = { defaultValue: 0, message: messages.nonDefaultNumber(member) };
    schema.nonDefault = rule;
  }
  return schema;
}

function describeRange(member: string, minimum: number | undefined, maximum: number | undefined): string | undefined {
  if (minimum !== undefined && maximum !== undefined) {
    return messages.rangeBetween(member, String(minimum), String(maximum));
  }
  if (minimum !== undefined) return messages.rangeMinimum(member, String(minimum));
  if (maximum !== undefined) return messages.rangeMaximum(member, String(maximum));
  return undefined;
}
