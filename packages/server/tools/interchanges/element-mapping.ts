// Maps the elements of an XSD complex type onto a JSON object shape of the model: leaves to properties, repeated
// elements to collections, commons to nested objects (or inline, when JSON flattens them), references to reference objects.
import type { PropertyShape, ResourceModel } from '../../src/model/index.js';
import type { XmlElementMapping } from '../../src/load/xml/interchange-mapping.js';
import { referenceElementMapping } from './identity-mapping.js';
import { findCollection, findProperty, findReferenceProperty, nameCandidates } from './json-names.js';
import { descriptorLeaf, valueTypeOf, type MappingContext } from './mapping-context.js';
import { EXTENSION_TYPE_PREFIX, entityNameOf, kindOf, type XsdElementKind } from './xsd-kinds.js';
import type { XsdComplexType, XsdElement } from './xsd-schema.js';

export interface ObjectTarget {
  resource: ResourceModel;
  /** The object shape the elements fill. */
  shape: PropertyShape;
  /** Path of that object in the document (`$`, `$.addresses[*]`), to find the model's references. */
  jsonPath: string;
  /** Names a collection element may start with that JSON drops (the entity and enclosing commons). */
  entityNames: string[];
  /** XML location for reports. */
  location: string;
}

/**
 * How an inline common's members are named: JSON prefixes them with the common's role name (`MinimumAvailableCredits`
 * of type `Credits` → `minimumAvailableCredits`, `minimumAvailableCreditTypeDescriptor`), and a repeated common
 * repeats each member (`DerivativeSourceEducationContentSource` → three `derivativeSource…` collections).
 */
interface InlineNaming {
  rolePrefix: string;
  repeats: boolean;
}

export type MappedChildren = Record<string, XmlElementMapping | null>;

const isLeaf = (property: PropertyShape): boolean => property.type !== 'array' && property.type !== 'object';
const isObject = (property: PropertyShape): boolean => property.type === 'object';
const isSchoolYearReference = (property: PropertyShape): boolean =>
  property.kind === 'reference' && property.properties?.schoolYear !== undefined;

function nested(target: ObjectTarget, element: XsdElement, shape: PropertyShape, jsonPath: string): ObjectTarget {
  return {
    resource: target.resource,
    shape,
    jsonPath,
    entityNames: [...target.entityNames, element.name, entityNameOf(element.type)],
    location: `${target.location}/${element.name}`,
  };
}

function propertyOf(shape: PropertyShape, name: string | undefined): PropertyShape | undefined {
  return name === undefined ? undefined : shape.properties?.[name];
}

/** The one property of a collection item that holds a repeated scalar, descriptor or school year. */
function soleItemProperty(items: PropertyShape | undefined): string | undefined {
  const names = Object.keys(items?.properties ?? {});
  return names.length === 1 ? names[0] : undefined;
}

function leafConversion(
  context: MappingContext,
  element: XsdElement,
  kind: XsdElementKind,
  property: PropertyShape | undefined,
): Pick<XmlElementMapping, 'type' | 'codeValueNamespace'> {
  return kind === 'descriptor' ? descriptorLeaf(context, element.type) : { type: valueTypeOf(property) };
}

function leafMapping(
  context: MappingContext,
  element: XsdElement,
  kind: XsdElementKind,
  target: ObjectTarget,
): XmlElementMapping | undefined {
  const { shape } = target;
  const candidates = nameCandidates(element.name, target.entityNames);
  if (!element.repeats) {
    if (kind === 'schoolYear') {
      const property = findProperty(shape, candidates, 'TypeReference', isSchoolYearReference);
      return property === undefined ? undefined : { path: [property], set: 'schoolYear', type: 'schoolYear' };
    }
    const property = findProperty(shape, candidates, kind === 'descriptor' ? 'Descriptor' : '', isLeaf);
    if (property === undefined) return undefined;
    return { set: property, ...leafConversion(context, element, kind, propertyOf(shape, property)) };
  }
  const collection = findCollection(shape, candidates);
  const items = propertyOf(shape, collection)?.items;
  const itemProperty = soleItemProperty(items);
  if (!collection || !items || !itemProperty) return undefined;
  if (kind === 'schoolYear') return { path: [`${collection}[]`, itemProperty], set: 'schoolYear', type: 'schoolYear' };
  const conversion = leafConversion(context, element, kind, propertyOf(items, itemProperty));
  return { path: [`${collection}[]`], set: itemProperty, ...conversion };
}

/** The collection whose items hold a reference named like the element (`GradingPeriodReference` → `gradingPeriods`). */
function referenceCollectionFor(element: XsdElement, target: ObjectTarget): string | undefined {
  const holders = Object.entries(target.shape.properties ?? {}).filter(
    ([, property]) => property.items !== undefined && findReferenceProperty(property.items, element.name) !== undefined,
  );
  if (holders.length <= 1) return holders[0]?.[0];
  const byName = findCollection(
    target.shape,
    nameCandidates(element.name.replace(/Reference$/, ''), target.entityNames),
  );
  return holders.find(([name]) => name === byName)?.[0];
}

function referenceMapping(
  context: MappingContext,
  element: XsdElement,
  target: ObjectTarget,
): XmlElementMapping | undefined {
  let objectShape = target.shape;
  let path: string[] = [];
  let jsonPath = target.jsonPath;
  if (element.repeats) {
    const collection = referenceCollectionFor(element, target);
    const items = propertyOf(target.shape, collection)?.items;
    if (!collection || !items) return undefined;
    objectShape = items;
    path = [`${collection}[]`];
    jsonPath = `${jsonPath}.${collection}[*]`;
  }
  const property = findReferenceProperty(objectShape, element.name);
  const referenceShape = propertyOf(objectShape, property);
  const reference = target.resource.references.find((candidate) => candidate.path === `${jsonPath}.${property}`);
  if (!property || !referenceShape || !reference) return undefined;
  const location = `${target.location}/${element.name}`;
  return {
    path: [...path, property],
    ...referenceElementMapping(context, {
      location,
      referenceType: element.type,
      reference,
      referenceShape,
    }),
  };
}

function complexMapping(
  context: MappingContext,
  element: XsdElement,
  target: ObjectTarget,
): XmlElementMapping | undefined {
  const { shape } = target;
  const candidates = nameCandidates(element.name, target.entityNames);
  const property = element.repeats ? undefined : findProperty(shape, candidates, '', isObject);
  const objectShape = propertyOf(shape, property);
  if (property && objectShape) {
    const objectTarget = nested(target, element, objectShape, `${target.jsonPath}.${property}`);
    return { path: [property], children: mapTypeElements(context, element.type, objectTarget) };
  }
  const collection = findCollection(shape, candidates);
  const items = propertyOf(shape, collection)?.items;
  if (collection && items) {
    const itemTarget = nested(target, element, items, `${target.jsonPath}.${collection}[*]`);
    return { path: [`${collection}[]`], children: mapTypeElements(context, element.type, itemTarget) };
  }
  const typeName = entityNameOf(element.type);
  const inline: InlineNaming = {
    rolePrefix: element.name.endsWith(typeName) ? element.name.slice(0, -typeName.length) : '',
    repeats: element.repeats,
  };
  const inlineTarget = { ...target, location: `${target.location}/${element.name}` };
  const children = mapTypeElements(context, element.type, inlineTarget, inline);
  return Object.values(children).some((child) => child !== null) ? { children } : undefined;
}

function elementMapping(context: MappingContext, element: XsdElement, target: ObjectTarget): XmlElementMapping | null {
  const mapping = mappingInto(context, element, target);
  if (mapping) return mapping;
  context.unmapped.push({
    location: `${target.location}/${element.name}`,
    reason: `no ${kindOf(context.schema, element.type)} property in the API model`,
  });
  return null;
}

function mappingInto(
  context: MappingContext,
  element: XsdElement,
  target: ObjectTarget,
): XmlElementMapping | undefined {
  const kind = kindOf(context.schema, element.type);
  return kind === 'reference'
    ? referenceMapping(context, element, target)
    : kind === 'complex'
      ? complexMapping(context, element, target)
      : leafMapping(context, element, kind, target);
}

/** The mapping of an element into `target` when it has a place there; what a failed attempt reported is dropped. */
function attemptedMapping(
  context: MappingContext,
  element: XsdElement,
  target: ObjectTarget,
): XmlElementMapping | undefined {
  const reported = context.unmapped.length;
  const mapping = mappingInto(context, element, target);
  if (!mapping) context.unmapped.length = reported;
  return mapping;
}

function typeChain(context: MappingContext, typeName: string): XsdComplexType[] {
  const chain: XsdComplexType[] = [];
  for (let type = context.schema.complexTypes.get(typeName); type;) {
    chain.unshift(type);
    type = type.base === undefined ? undefined : context.schema.complexTypes.get(type.base);
  }
  return chain;
}

/** The `_ext.{project}` part of a core object (the document, a collection item) that an extension's type fills. */
function extensionTarget(
  context: MappingContext,
  target: ObjectTarget,
): { target: ObjectTarget; path: string[] } | undefined {
  const project = propertyOf(target.shape, '_ext')?.properties?.[context.project];
  if (!project) return undefined;
  const jsonPath = `${target.jsonPath}._ext.${context.project}`;
  return { target: { ...target, shape: project, jsonPath }, path: ['_ext', context.project] };
}

/**
 * Whether a type in a chain adds the extension's members to the core type it extends; a restriction of a core type
 * (Sample's `EXTENSION-ContactRestriction`) restates core content.
 */
function addsExtensionMembers(type: XsdComplexType, target: ObjectTarget): boolean {
  return (
    type.name.startsWith(EXTENSION_TYPE_PREFIX) && type.restricts === undefined && target.resource.namespace === 'ed-fi'
  );
}

/**
 * Child mappings of every element of `typeName` (inherited ones first) into `target`. The elements an extension's
 * type adds go to its `_ext` part, unless they are core members it re-declares with an extended type (Sample's
 * `Address` of type `EXTENSION-AddressExtension`, whose own additions then go to the address item's `_ext`).
 */
export function mapTypeElements(
  context: MappingContext,
  typeName: string,
  target: ObjectTarget,
  inline: InlineNaming = { rolePrefix: '', repeats: false },
): MappedChildren {
  const children: MappedChildren = {};
  for (const type of typeChain(context, typeName)) {
    const extension = addsExtensionMembers(type, target) ? extensionTarget(context, target) : undefined;
    for (const element of type.ownElements) {
      const named = {
        ...element,
        name: inline.rolePrefix + element.name,
        repeats: element.repeats || inline.repeats,
      };
      const inExtension = extension && attemptedMapping(context, named, extension.target);
      children[element.name] = inExtension
        ? { ...inExtension, path: [...extension.path, ...(inExtension.path ?? [])] }
        : elementMapping(context, named, target);
    }
  }
  return children;
}
