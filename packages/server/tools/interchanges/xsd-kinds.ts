// What an XSD element's type means for the API JSON: a reference, a descriptor URI, a school year, a common or a scalar.
import { derivesFrom, type XsdSchema } from './xsd-schema.js';

export type XsdElementKind = 'reference' | 'descriptor' | 'schoolYear' | 'complex' | 'scalar';

export function kindOf(schema: XsdSchema, typeName: string): XsdElementKind {
  if (typeName === 'SchoolYearType') return 'schoolYear';
  if (derivesFrom(schema, typeName, 'ReferenceType')) return 'reference';
  if (derivesFrom(schema, typeName, 'DescriptorReferenceType')) return 'descriptor';
  return schema.complexTypes.has(typeName) ? 'complex' : 'scalar';
}

/** Type names of the TPDM extension schema carry this prefix; the entity name follows it. */
export const EXTENSION_TYPE_PREFIX = 'EXTENSION-';

export function entityNameOf(typeName: string): string {
  return typeName.startsWith(EXTENSION_TYPE_PREFIX) ? typeName.slice(EXTENSION_TYPE_PREFIX.length) : typeName;
}
