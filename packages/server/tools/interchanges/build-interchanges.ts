// Builds `model/interchanges.json`: every top-level element of the DS 5.2 and TPDM interchange schemas, with the
// resource it loads into and the element-by-element conversion to API JSON.
import type { ModelRegistry, ProjectNamespace, ResourceModel } from '../../src/model/index.js';
import {
  mergeInterchangeMappings,
  type DocumentElementMapping,
  type InterchangeMappings,
  type XmlElementMapping,
} from '../../src/load/xml/interchange-mapping.js';
import { mapTypeElements } from './element-mapping.js';
import type { MappingContext, UnmappedElement } from './mapping-context.js';
import { EXTENSION_TYPE_PREFIX, kindOf } from './xsd-kinds.js';
import { derivesFrom, type XsdSchema } from './xsd-schema.js';

export interface InterchangesBuild {
  mappings: InterchangeMappings;
  /** XSD elements the API model has no property for (their content is ignored when loading). */
  unmapped: UnmappedElement[];
}

/** Element name → its type; where interchanges disagree (core vs TPDM-extended), the most derived type wins. */
function interchangeElementTypes(schema: XsdSchema): Map<string, string> {
  const types = new Map<string, string>();
  for (const elements of schema.interchanges.values()) {
    for (const { name, type } of elements) {
      const known = types.get(name);
      if (known === undefined || derivesFrom(schema, type, known)) types.set(name, type);
    }
  }
  return new Map([...types].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function resourceFor(context: MappingContext, elementName: string, typeName: string): ResourceModel | undefined {
  const { registry, project } = context;
  const own = typeName.startsWith(EXTENSION_TYPE_PREFIX) ? registry.getResourceByName(elementName, project) : undefined;
  return own ?? registry.getResourceByName(elementName);
}

/**
 * The mapping of every top-level element of the schema's interchanges; `project` is the extension whose `EXTENSION-`
 * types the schema holds.
 */
export function buildInterchanges(
  schema: XsdSchema,
  registry: ModelRegistry,
  project: ProjectNamespace,
): InterchangesBuild {
  const context: MappingContext = { schema, registry, project, unmapped: [] };
  const documents: Record<string, DocumentElementMapping> = {};
  const notDocuments: Record<string, string> = {};
  for (const [elementName, typeName] of interchangeElementTypes(schema)) {
    if (kindOf(schema, typeName) === 'reference') {
      notDocuments[elementName] = 'a reference declaration (an XML id target), not a document';
      continue;
    }
    if (registry.getAbstractResource(elementName)) {
      notDocuments[elementName] = 'an abstract type; documents are loaded through its concrete subclasses';
      continue;
    }
    const resource = resourceFor(context, elementName, typeName);
    if (!resource) throw new Error(`Interchange element ${elementName} (${typeName}) has no API resource`);
    const entityNames = [resource.resourceName, ...(resource.superclass ? [resource.superclass.resourceName] : [])];
    const children = mapTypeElements(context, typeName, {
      resource,
      shape: resource.shape,
      jsonPath: '$',
      entityNames,
      location: elementName,
    });
    documents[elementName] = { namespace: resource.namespace, endpoint: resource.endpoint, children };
  }
  return { mappings: { documents, notDocuments }, unmapped: context.unmapped };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** An element's conversion less the children it converts as the base does (what merging it into the base adds). */
function addedChildren<T extends XmlElementMapping>(base: XmlElementMapping | undefined, extension: T): T {
  if (!base?.children || !extension.children) return extension;
  const children: Record<string, XmlElementMapping | null> = {};
  for (const [name, child] of Object.entries(extension.children)) {
    const known = base.children[name];
    if (child === null || same(known, child)) continue;
    children[name] = known ? addedChildren(known, child) : child;
  }
  return { ...extension, children };
}

/**
 * An extension's part of the mapping: the elements whose conversion it changes when merged into the base (its own
 * documents, core ones it extends), each with only what it adds, checked to merge into the base as the whole
 * mapping does.
 */
export function extensionPart(base: InterchangeMappings, extension: InterchangeMappings): InterchangeMappings {
  const whole = mergeInterchangeMappings(base, extension);
  const documents: Record<string, DocumentElementMapping> = {};
  for (const [name, mapping] of Object.entries(extension.documents)) {
    if (!same(whole.documents[name], base.documents[name]))
      documents[name] = addedChildren(base.documents[name], mapping);
  }
  const part = {
    documents,
    notDocuments: Object.fromEntries(
      Object.entries(extension.notDocuments).filter(([name]) => base.notDocuments[name] === undefined),
    ),
  };
  if (!same(mergeInterchangeMappings(base, part), whole)) throw new Error('The extension part merges unlike the whole');
  return part;
}
