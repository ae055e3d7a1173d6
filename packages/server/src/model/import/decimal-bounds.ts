// Decimal range rules: precision/scale digits, the XSD simple type's facets, and the ODS money range for currency.
import type { DecimalTypes } from '../types.js';
import type { JsonSchema } from './source-types.js';

export interface DecimalBounds {
  minimum: number;
  maximum: number;
}

interface DecimalFacets {
  typeName: string;
  minInclusive?: number;
  maxInclusive?: number;
}

/** The MONEY and percent rules below name these XSD types. */
const CURRENCY_TYPE = 'Currency';
/** MetaEd percent properties carry no range in the API, although the XSD Percent type restricts to 0..1. */
const PERCENT_TYPE = 'Percent';
/** The ODS stores Currency as MONEY, so its range is SQL money's, not the precision's. */
const MONEY_BOUND = Number('922337203685477.5807');

const SIMPLE_TYPE = /<xs:simpleType name="([^"]+)">([\s\S]*?)<\/xs:simpleType>/g;
const ELEMENT = /<xs:element name="([^"]+)" type="([^"]+)"/g;

/** The decimal simple types of XSD texts and the elements of those types (by type name, known ones included). */
export function readDecimalTypes(xsdTexts: readonly string[], known?: DecimalTypes): DecimalTypes {
  const types: DecimalTypes['types'] = { ...known?.types };
  for (const text of xsdTexts) {
    for (const [, typeName, body] of text.matchAll(SIMPLE_TYPE)) {
      if (!typeName || !body?.includes('base="xs:decimal"')) continue;
      const facet = (name: string): number | undefined => {
        const value = new RegExp(`<xs:${name} value="([^"]+)"`).exec(body)?.[1];
        return value === undefined ? undefined : Number(value);
      };
      const [minInclusive, maxInclusive] = [facet('minInclusive'), facet('maxInclusive')];
      types[typeName] = {
        ...(minInclusive === undefined ? {} : { minInclusive }),
        ...(maxInclusive === undefined ? {} : { maxInclusive }),
      };
    }
  }
  const elements: Record<string, string> = { ...known?.elements };
  const declared = new Map(Object.entries(elements));
  for (const text of xsdTexts) {
    for (const [, elementName, typeName] of text.matchAll(ELEMENT)) {
      if (!elementName || !typeName || types[typeName] === undefined) continue;
      const other = declared.get(elementName);
      if (other !== undefined && other !== typeName) {
        throw new Error(`XSD element ${elementName} has two decimal types: ${other}, ${typeName}`);
      }
      declared.set(elementName, typeName);
      elements[elementName] = typeName;
    }
  }
  return { types, elements };
}

/**
 * Element name (PascalCase) → facets of its decimal simple type, from the XSDs' texts and the known types (the core
 * XSD's, which an extension's XSD uses without defining).
 */
export function readDecimalFacetsByElement(
  xsdTexts: readonly string[],
  known?: DecimalTypes,
): Map<string, DecimalFacets> {
  const { types, elements } = readDecimalTypes(xsdTexts, known);
  return new Map(
    Object.entries(elements).map(([elementName, typeName]) => [elementName, { typeName, ...types[typeName] }]),
  );
}

/**
 * JSON flattens XSD wrappers (`AttemptedCredits` holds a `Credits` element), so a leaf without an element of its own
 * name takes the longest element name it ends with.
 */
function facetsOf(elementName: string, facetsByElement: Map<string, DecimalFacets>): DecimalFacets | undefined {
  const exact = facetsByElement.get(elementName);
  if (exact) return exact;
  const suffix = [...facetsByElement.keys()]
    .filter((name) => elementName.endsWith(name))
    .sort((a, b) => b.length - a.length)[0];
  return suffix === undefined ? undefined : facetsByElement.get(suffix);
}

/** Largest magnitude a DECIMAL(precision, scale) holds, e.g. (5,2) → 999.99. */
function digitsBound(precision: number, scale: number): number {
  const integerDigits = '9'.repeat(Math.max(precision - scale, 1));
  return Number(scale > 0 ? `${integerDigits}.${'9'.repeat(scale)}` : integerDigits);
}

export function decimalBounds(
  leafName: string,
  precision: number,
  scale: number,
  facetsByElement: Map<string, DecimalFacets>,
): DecimalBounds {
  const facets = facetsOf(leafName.charAt(0).toUpperCase() + leafName.slice(1), facetsByElement);
  if (facets?.typeName === CURRENCY_TYPE) return { minimum: -MONEY_BOUND, maximum: MONEY_BOUND };
  const bound = digitsBound(precision, scale);
  if (!facets || facets.typeName === PERCENT_TYPE) return { minimum: -bound, maximum: bound };
  return { minimum: facets.minInclusive ?? -bound, maximum: facets.maxInclusive ?? bound };
}

/** ODS 7.2 (DS 5.1) published decimal ranges by property name; the importer checks its rule reproduces them. */
export function odsPublishedDecimalBounds(schemas: Record<string, JsonSchema>): Map<string, DecimalBounds> {
  const byName = new Map<string, DecimalBounds>();
  for (const schema of Object.values(schemas)) {
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (property.type !== 'number' || property.minimum === undefined || property.maximum === undefined) continue;
      byName.set(name, { minimum: property.minimum, maximum: property.maximum });
    }
  }
  return byName;
}
