// Reads the Ed-Fi XSD files into type tables: complex types (with inherited elements) and simple-type bases.
import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';

export interface XsdElement {
  name: string;
  type: string;
  repeats: boolean;
}

export interface XsdComplexType {
  name: string;
  base?: string;
  /** Restricts `base` (restating the elements it keeps): an extension's reshaping of a core type, itself core content. */
  restricts?: string;
  /** Elements declared by this type itself, in document order (nested sequences and choices flattened). */
  ownElements: XsdElement[];
}

export interface XsdSchema {
  complexTypes: Map<string, XsdComplexType>;
  /** Simple type name → its restriction base. */
  simpleTypeBases: Map<string, string>;
  /** Interchange name → its top-level elements. */
  interchanges: Map<string, XsdElement[]>;
}

interface OpenNode {
  local: string;
  attributes: Record<string, string>;
  repeats: boolean;
}

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1);
}

/** Adds one XSD file's declarations to the schema. */
function readXsdFile(file: string, schema: XsdSchema): void {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const stack: OpenNode[] = [];
  let currentType: XsdComplexType | undefined;
  let currentSimpleType: string | undefined;
  let interchange: XsdElement[] | undefined;

  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    const local = localName(tag.name);
    const parent = stack.at(-1);
    const repeats = attributes.maxOccurs === 'unbounded' || (parent?.repeats ?? false);
    stack.push({ local, attributes, repeats: (local === 'choice' || local === 'sequence') && repeats });
    if (local === 'complexType' && attributes.name) {
      currentType = { name: attributes.name, ownElements: [] };
      schema.complexTypes.set(currentType.name, currentType);
    } else if (local === 'simpleType' && attributes.name) {
      currentSimpleType = attributes.name;
    } else if (local === 'restriction' && currentSimpleType && attributes.base) {
      schema.simpleTypeBases.set(currentSimpleType, localName(attributes.base));
    } else if (local === 'extension' && currentType && attributes.base) {
      currentType.base = localName(attributes.base);
    } else if (local === 'restriction' && currentType && parent?.local === 'complexContent' && attributes.base) {
      currentType.restricts = localName(attributes.base);
    } else if (local === 'element' && attributes.name) {
      if (stack.length === 2 && attributes.name.startsWith('Interchange')) {
        interchange = [];
        schema.interchanges.set(attributes.name, interchange);
      } else if (attributes.type) {
        const element = { name: attributes.name, type: localName(attributes.type), repeats };
        (currentType?.ownElements ?? interchange)?.push(element);
      }
    }
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    const local = localName(tag.name);
    if (local === 'complexType' && stack.length === 1) currentType = undefined;
    if (local === 'simpleType' && stack.length === 1) currentSimpleType = undefined;
    if (local === 'element' && stack.length === 1) interchange = undefined;
  });
  parser.write(readFileSync(file, 'utf8')).close();
}

export function readXsdSchema(files: readonly string[]): XsdSchema {
  const schema: XsdSchema = { complexTypes: new Map(), simpleTypeBases: new Map(), interchanges: new Map() };
  for (const file of files) readXsdFile(file, schema);
  return schema;
}

/** A complex type's elements, base type's first (XSD extension appends to the base sequence). */
export function elementsOf(schema: XsdSchema, typeName: string): XsdElement[] {
  const type = schema.complexTypes.get(typeName);
  if (!type) return [];
  return [...(type.base ? elementsOf(schema, type.base) : []), ...type.ownElements];
}

/** Whether `typeName` is, or derives from, `ancestor` (through complex extensions or simple restrictions). */
export function derivesFrom(schema: XsdSchema, typeName: string, ancestor: string): boolean {
  for (let name: string | undefined = typeName; name;) {
    if (name === ancestor) return true;
    name = schema.complexTypes.get(name)?.base ?? schema.simpleTypeBases.get(name);
  }
  return false;
}
