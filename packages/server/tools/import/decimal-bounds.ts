// Decimal range rules: precision/scale digits, the XSD simple type's facets, and the ODS money range for currency.
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

/** The ODS stores Currency as MONEY, so its range is SQL money's, not the precision's. */
const MONEY_BOUND = Number('922337203685477.5807');
const CURRENCY_TYPE = 'Currency';
/** MetaEd percent properties carry no range in the API, although the XSD Percent type restricts to 0..1. */
const PERCENT_TYPE = 'Percent';

/** Element name (PascalCase) → facets of its decimal simple type, from the core and TPDM XSDs. */
export function readDecimalFacetsByElement(xsdTexts: string[]): Map<string, DecimalFacets> {
  const facetsByType = new Map<string, DecimalFacets>();
  const simpleType = /<xs:simpleType name="([^"]+)">([\s\S]*?)<\/xs:simpleType>/g;
  for (const text of xsdTexts) {
    for (const [, typeName, body] of text.matchAll(simpleType)) {
      if (!typeName || !body?.includes('base="xs:decimal"')) continue;
      const facet = (name: string): number | undefined => {
        const value = new RegExp(`<xs:${name} value="([^"]+)"`).exec(body)?.[1];
        return value === undefined ? undefined : Number(value);
      };
      facetsByType.set(typeName, {
        typeName,
        minInclusive: facet('minInclusive'),
        maxInclusive: facet('maxInclusive'),
      });
    }
  }
  const byElement = new Map<string, DecimalFacets>();
  const element = /<xs:element name="([^"]+)" type="([^"]+)"/g;
  for (const text of xsdTexts) {
    for (const [, elementName, typeName] of text.matchAll(element)) {
      const facets = typeName ? facetsByType.get(typeName) : undefined;
      if (!elementName || !facets) continue;
      const known = byElement.get(elementName);
      if (known && known.typeName !== facets.typeName) {
        throw new Error(`XSD element ${elementName} has two decimal types: ${known.typeName}, ${facets.typeName}`);
      }
      byElement.set(elementName, facets);
    }
  }
  return byElement;
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
