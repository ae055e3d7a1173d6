// What the interchange mapping builders share: the XSD, the model, and the list of elements left without a mapping.
import type { ModelRegistry, ProjectNamespace, PropertyShape } from '../../src/model/index.js';
import type { XmlElementMapping, XmlValueType } from '../../src/load/xml/interchange-mapping.js';
import { EXTENSION_TYPE_PREFIX, entityNameOf } from './xsd-kinds.js';
import type { XsdSchema } from './xsd-schema.js';

export interface UnmappedElement {
  /** `Resource/Element/Child` in XML names. */
  location: string;
  reason: string;
}

export interface MappingContext {
  readonly schema: XsdSchema;
  readonly registry: ModelRegistry;
  /** The extension whose XSD is read: its `EXTENSION-` types are its resources and `_ext` additions. */
  readonly project: ProjectNamespace;
  readonly unmapped: UnmappedElement[];
}

export function valueTypeOf(shape: PropertyShape | undefined): XmlValueType {
  if (shape?.type === 'integer' || shape?.type === 'number' || shape?.type === 'boolean') return shape.type;
  return 'string';
}

/** Descriptor namespaces per project; other extensions (Sample's test rows) use Ed-Fi's. */
const PROJECT_URIS: Readonly<Record<string, string>> = { 'ed-fi': 'uri://ed-fi.org', tpdm: 'uri://tpdm.ed-fi.org' };

/**
 * The conversion of a descriptor element of XSD type `XDescriptorReferenceType`: the namespace of descriptor X's
 * default values, so a bare code value can become a URI (by project convention where no defaults ship).
 */
export function descriptorLeaf(
  context: MappingContext,
  xsdType: string,
): Pick<XmlElementMapping, 'type' | 'codeValueNamespace'> {
  const name = entityNameOf(xsdType).replace(/ReferenceType$/, '');
  const project = xsdType.startsWith(EXTENSION_TYPE_PREFIX) ? context.project : 'ed-fi';
  const resource = context.registry.getResourceByName(name, project) ?? context.registry.getResourceByName(name);
  if (!resource) throw new Error(`No descriptor resource ${name} for XSD type ${xsdType}`);
  const [defaultValue] = context.registry.descriptorValuesOf(name);
  const codeValueNamespace =
    defaultValue?.namespace ?? `${PROJECT_URIS[resource.namespace] ?? PROJECT_URIS['ed-fi']}/${name}`;
  return { type: 'descriptor', codeValueNamespace };
}
