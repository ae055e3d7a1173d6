// What the interchange mapping builders share: the XSD, the model, and the list of elements left without a mapping.
import type { ModelRegistry, PropertyShape } from '../../src/model/index.js';
import type { XmlValueType } from '../../src/load/xml/interchange-mapping.js';
import type { XsdSchema } from './xsd-schema.js';

export interface UnmappedElement {
  /** `Resource/Element/Child` in XML names. */
  location: string;
  reason: string;
}

export interface MappingContext {
  readonly schema: XsdSchema;
  readonly registry: ModelRegistry;
  readonly unmapped: UnmappedElement[];
}

export function valueTypeOf(shape: PropertyShape | undefined): XmlValueType {
  if (shape?.type === 'integer' || shape?.type === 'number' || shape?.type === 'boolean') return shape.type;
  return 'string';
}
