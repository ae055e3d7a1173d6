// Reads a request body into the canonical document, compiled once per resource shape: property names matched
// case-insensitively, unknown members (link, _etag, _lastModifiedDate, …) dropped, nulls treated as absent, scalars converted.
import type { PropertyShape } from '../index.js';
import { memberName } from './member-names.js';
import { messages } from './messages.js';
import {
  ConversionError,
  convertBoolean,
  convertDate,
  convertRequiredDate,
  convertDateTime,
  convertInt32,
  convertInt64,
  convertOptionalDescriptor,
  convertString,
  convertTime,
  decimalConverter,
  type ScalarConverter,
} from './scalar-conversion.js';
import type { JsonObject, JsonValue, ValidationErrors } from './validation-result.js';

export interface ReadOutcome {
  readonly document: JsonObject;
  /** Conversion failures keyed by JSON path; undefined when every value converted. */
  readonly errors: ValidationErrors | undefined;
}

export type DocumentReader = (body: object) => ReadOutcome;

/** Where the reader is: property names and array indexes from the root. */
type Trail = (string | number)[];

interface ReadContext {
  readonly trail: Trail;
  errors: ValidationErrors | undefined;
}

type NodeReader = (raw: unknown, context: ReadContext) => JsonValue | undefined;

export function compileDocumentReader(shape: PropertyShape, typeName: string): DocumentReader {
  const readRoot = objectReader(shape, typeName);
  return (body) => {
    const context: ReadContext = { trail: [], errors: undefined };
    const document = readRoot(body, context) as JsonObject;
    return { document, errors: context.errors };
  };
}

/** Newtonsoft's path form: `schoolReference.schoolId`, `addresses[0].city`. */
function newtonsoftPath(trail: Trail): string {
  let path = '';
  for (const step of trail) path += typeof step === 'number' ? `[${step}]` : path === '' ? step : `.${step}`;
  return path;
}

function fail(context: ReadContext, error: ConversionError): undefined {
  const path = newtonsoftPath(context.trail);
  const key = path === '' ? '$' : path.startsWith('[') ? `$${path}` : `$.${path}`;
  context.errors ??= {};
  (context.errors[key] ??= []).push(error.messageAt(path));
  return undefined;
}

function nodeReader(shape: PropertyShape, typeName: string): NodeReader {
  switch (shape.type) {
    case 'object':
      return objectReader(shape, typeName);
    case 'array':
      return arrayReader(shape, typeName);
    default:
      return scalarReader(scalarConverter(shape));
  }
}

function scalarConverter(shape: PropertyShape): ScalarConverter {
  switch (shape.type) {
    case 'boolean':
      return convertBoolean;
    case 'integer':
      return shape.format === 'int64' ? convertInt64 : convertInt32;
    case 'number':
      return decimalConverter(shape.decimal?.scale);
    default:
      if (shape.format === 'date') return shape.required === true ? convertRequiredDate : convertDate;
      if (shape.format === 'date-time') return convertDateTime;
      if (shape.format === 'time') return convertTime;
      return shape.kind === 'descriptor' && shape.required !== true ? convertOptionalDescriptor : convertString;
  }
}

function scalarReader(convert: ScalarConverter): NodeReader {
  return (raw, context) => {
    const value = convert(raw);
    return value instanceof ConversionError ? fail(context, value) : value;
  };
}

function failScalar(context: ReadContext, raw: unknown, typeName: string): undefined {
  const value = typeof raw === 'string' ? JSON.stringify(raw) : String(raw);
  return fail(context, new ConversionError((path) => messages.conversion.scalarForObject(value, typeName, path)));
}

function failObjectForCollection(context: ReadContext, typeName: string): undefined {
  return fail(context, new ConversionError((path) => messages.conversion.objectForCollection(typeName, path)));
}

/** Reads the members of one object shape: collects input members by name, then converts them in model order. */
type ObjectBody = (
  input: Record<string, unknown>,
  readers: readonly NodeReader[],
  foldedIndex: ReadonlyMap<string, number>,
  context: ReadContext,
) => JsonObject;

const objectBodies = new Map<string, ObjectBody>();

/**
 * Generates the member loop of an object shape as straight-line code (a `switch` on the member name, one variable
 * and one constant-name store per member): far faster than map look-ups and computed stores on the hot path.
 * Names are model property names, embedded as JSON string literals. Shapes with the same members share the code.
 */
function compileObjectBody(names: readonly string[]): ObjectBody {
  const signature = names.join(',');
  const cached = objectBodies.get(signature);
  if (cached) return cached;
  const slot = (index: number) => `v${index}`;
  const literal = (name: string) => JSON.stringify(name);
  const exactCases = names.map((name, index) => `case ${literal(name)}: ${slot(index)} = input[key]; break;`);
  const foldedCases = names.map((_, index) => `case ${index}: ${slot(index)} = input[key]; break;`);
  const reads = names.map(
    (name, index) =>
      `if (${slot(index)} != null) { context.trail.push(${literal(name)}); read = readers[${index}](${slot(index)}, context); ` +
      `context.trail.pop(); if (read !== undefined) document[${literal(name)}] = read; }`,
  );
  const source = [
    names.length > 0 ? `let ${names.map((_, index) => slot(index)).join(', ')};` : '',
    'for (const key in input) {',
    `switch (key) { ${exactCases.join(' ')} default: switch (foldedIndex.get(key.toLowerCase())) { ${foldedCases.join(' ')} } }`,
    '}',
    'const document = {};',
    'let read;',
    ...reads,
    'return document;',
  ].join('\n');
  const body = new Function('input', 'readers', 'foldedIndex', 'context', source) as ObjectBody;
  objectBodies.set(signature, body);
  return body;
}

function objectReader(shape: PropertyShape, typeName: string): NodeReader {
  const properties = Object.entries(shape.properties ?? {});
  const names = properties.map(([name]) => name);
  const foldedIndex = new Map(names.map((name, index) => [name.toLowerCase(), index]));
  const readers = properties.map(([name, property]) => nodeReader(property, memberName(name)));
  const readMembers = compileObjectBody(names);
  return (raw, context) => {
    if (Array.isArray(raw)) {
      return fail(context, new ConversionError((path) => messages.conversion.arrayForObject(typeName, path)));
    }
    if (typeof raw !== 'object' || raw === null) return failScalar(context, raw, typeName);
    return readMembers(raw as Record<string, unknown>, readers, foldedIndex, context);
  };
}

function arrayReader(shape: PropertyShape, typeName: string): NodeReader {
  const readItem = objectReader(shape.items ?? { type: 'object' }, typeName);
  return (raw, context) => {
    if (!Array.isArray(raw))
      return typeof raw === 'object' ? failObjectForCollection(context, typeName) : failScalar(context, raw, typeName);
    const items: JsonValue[] = [];
    for (let index = 0; index < raw.length; index++) {
      const item: unknown = raw[index];
      if (item === undefined || item === null) continue;
      context.trail.push(index);
      const read = readItem(item, context);
      context.trail.pop();
      if (read !== undefined) items.push(read);
    }
    return items;
  };
}
