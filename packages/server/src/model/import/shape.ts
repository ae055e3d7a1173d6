// Converts source shapes (the derived nested shape, or an ApiSchema JSON schema) into our PropertyShape, adding
// identity, descriptor, integer-width and decimal facts.
import type { JsonPath, PropertyShape, ScalarFormat } from '../types.js';
import { isPathWithin } from '../json-path.js';
import type { DecimalBounds } from './decimal-bounds.js';
import { compareText } from './ordering.js';
import type { IntegerWidth } from './integer-widths.js';
import type { DerivedShapeNode, JsonSchema, SourceFacets } from './source-types.js';

export interface ShapeFacts {
  identityPaths: JsonPath[];
  descriptorPaths: Set<JsonPath>;
  referencePaths: Set<JsonPath>;
  decimals: Record<JsonPath, { precision: number; scale: number }>;
  integerWidth(path: JsonPath): IntegerWidth | undefined;
  decimalBounds(leafName: string, precision: number, scale: number): DecimalBounds;
}

function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => compareText(a, b));
}

const STRING_FORMATS = new Set<string>(['date', 'time', 'date-time']);

interface SourceNodeFacts extends SourceFacets {
  type: PropertyShape['type'];
  required: boolean;
  deprecated: boolean;
  isReference: boolean;
}

/** The facts every source node carries; children are converted by the caller. */
function leafFacts(path: JsonPath, name: string, node: SourceNodeFacts, facts: ShapeFacts): PropertyShape {
  const shape: PropertyShape = { type: node.type };
  if (node.type === 'string' && node.format && STRING_FORMATS.has(node.format))
    shape.format = node.format as ScalarFormat;
  if (node.type === 'integer') {
    const width = facts.integerWidth(path);
    if (!width) throw new Error(`No integer width for ${path}`);
    shape.format = width;
  }
  if (node.maxLength !== undefined) shape.maxLength = node.maxLength;
  if (node.minLength !== undefined) shape.minLength = node.minLength;
  if (node.type === 'number') {
    const decimal = facts.decimals[path];
    if (!decimal) throw new Error(`No decimal precision for ${path}`);
    shape.decimal = decimal;
    Object.assign(shape, facts.decimalBounds(name, decimal.precision, decimal.scale));
  } else {
    if (node.minimum !== undefined) shape.minimum = node.minimum;
    if (node.maximum !== undefined) shape.maximum = node.maximum;
  }
  if (node.required) shape.required = true;
  if (facts.identityPaths.some((identityPath) => isPathWithin(identityPath, path))) shape.isIdentity = true;
  if (node.deprecated) shape.deprecated = true;
  if (node.isReference || facts.referencePaths.has(path)) shape.kind = 'reference';
  else if (facts.descriptorPaths.has(path)) shape.kind = 'descriptor';
  if (node.minItems !== undefined) shape.minItems = node.minItems;
  return shape;
}

function convertDerivedMembers(
  members: Record<string, DerivedShapeNode>,
  parentPath: JsonPath,
  facts: ShapeFacts,
): Record<string, PropertyShape> {
  const properties: Record<string, PropertyShape> = {};
  for (const [name, node] of sortedEntries(members)) {
    const path = `${parentPath}.${name}`;
    // The derived model marks where TPDM extends a core resource; extensions are built apart and merged later.
    if (node.type === 'extension') continue;
    const isArray = node.type === 'array';
    const shape = leafFacts(
      isArray ? `${path}[*]` : path,
      name,
      {
        ...node,
        type: node.type,
        required: node.required === true,
        deprecated: node.deprecated !== undefined && node.deprecated !== false,
        isReference: node.kind === 'reference',
      },
      facts,
    );
    if (node.properties) shape.properties = convertDerivedMembers(node.properties, path, facts);
    if (node.items)
      shape.items = { type: 'object', properties: convertDerivedMembers(node.items, `${path}[*]`, facts) };
    properties[name] = shape;
  }
  return properties;
}

export function convertDerivedShape(root: Record<string, DerivedShapeNode>, facts: ShapeFacts): PropertyShape {
  return { type: 'object', properties: convertDerivedMembers(root, '$', facts) };
}

/** Converts a JSON schema object node (ApiSchema / OpenAPI) found at `path`. */
export function convertJsonSchemaObject(schema: JsonSchema, path: JsonPath, facts: ShapeFacts): PropertyShape {
  const properties: Record<string, PropertyShape> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, node] of sortedEntries(schema.properties ?? {})) {
    const childPath = `${path}.${name}`;
    const isArray = node.type === 'array';
    const shape = leafFacts(
      isArray ? `${childPath}[*]` : childPath,
      name,
      {
        ...node,
        type: (node.type ?? 'object') as PropertyShape['type'],
        required: required.has(name),
        deprecated: false,
        isReference: false,
      },
      facts,
    );
    if (node.type === 'object' || (!node.type && node.properties)) {
      shape.properties = convertJsonSchemaObject(node, childPath, facts).properties ?? {};
    }
    if (isArray && node.items) shape.items = convertJsonSchemaObject(node.items, `${childPath}[*]`, facts);
    properties[name] = shape;
  }
  return { type: 'object', properties };
}
