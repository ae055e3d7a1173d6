// Maps a reference element (`<XReference><XIdentity>…</XIdentity></XReference>`) to the fields of the JSON reference
// object. An identity nests the references of the target's own key (a Session identity holds a School reference), so
// each identity leaf is traced to a path in the target document, and that path to the reference field the model maps it to.
import type { PropertyShape, ReferenceField, ReferenceModel, ResourceModel } from '../../src/model/index.js';
import type { IdrefMapping, XmlElementMapping } from '../../src/load/xml/interchange-mapping.js';
import { findProperty, findReferenceProperty } from './json-names.js';
import { descriptorLeaf, valueTypeOf, type MappingContext } from './mapping-context.js';
import { elementsOf, type XsdElement } from './xsd-schema.js';
import { kindOf } from './xsd-kinds.js';

/** The target of a reference as identity elements see it: its shape and the references of its key. */
interface TargetView {
  name: string;
  shape: PropertyShape;
  references: readonly ReferenceModel[];
}

interface IdentityLeaf {
  /** Element names below the identity element. */
  xmlPath: string[];
  /** Paths in the target document holding the leaf's value (several where the target unifies keys). */
  targetPaths: string[];
  isSchoolYear: boolean;
  /** The XSD type of a descriptor leaf. */
  descriptorType?: string;
}

function targetView(context: MappingContext, reference: ReferenceModel): TargetView | undefined {
  const { registry } = context;
  if (!reference.targetIsAbstract) {
    const target = registry.getResourceByName(reference.target, reference.targetNamespace);
    return target && { name: target.resourceName, shape: target.shape, references: target.references };
  }
  // Subclasses share the abstract key; the first one stands in, with its renamed id (schoolId → educationOrganizationId).
  const subclass: ResourceModel | undefined = registry.subclassesOf(reference.target)[0];
  if (!subclass) return undefined;
  const properties = { ...subclass.shape.properties };
  const rename = subclass.superclass?.identityRename;
  if (rename) {
    const from = rename.from.slice(2);
    const to = rename.to.slice(2);
    const renamed = properties[from];
    if (renamed) properties[to] = renamed;
  }
  return { name: reference.target, shape: { ...subclass.shape, properties }, references: subclass.references };
}

/** The `XIdentity` child of a reference type, and its `XLookup` sibling when the XSD offers one. */
function identityElements(
  context: MappingContext,
  referenceType: string,
): { identity?: XsdElement; lookup?: XsdElement } {
  const elements = elementsOf(context.schema, referenceType);
  return {
    identity: elements.find((element) => element.name.endsWith('Identity')),
    lookup: elements.find((element) => element.name.endsWith('Lookup')),
  };
}

/** The reference's fields that take a leaf's value (a target key member may feed several fields). */
function fieldsHolding(reference: ReferenceModel, leaf: IdentityLeaf): ReferenceField[] {
  return reference.fields.filter((field) => leaf.targetPaths.some((path) => field.targetIdentityPaths.includes(path)));
}

function identityLeaves(context: MappingContext, identityType: string, target: TargetView): IdentityLeaf[] {
  const leaves: IdentityLeaf[] = [];
  for (const element of elementsOf(context.schema, identityType)) {
    const kind = kindOf(context.schema, element.type);
    const miss = (reason: string): void => {
      context.unmapped.push({ location: `${target.name}Identity/${element.name}`, reason });
    };
    if (kind === 'reference') {
      const property = findReferenceProperty(target.shape, element.name);
      const nested = property && target.references.find((reference) => reference.path === `$.${property}`);
      const nestedView = nested && targetView(context, nested);
      const { identity } = identityElements(context, element.type);
      if (!nested || !nestedView || !identity) {
        miss('no matching reference in the target');
        continue;
      }
      for (const leaf of identityLeaves(context, identity.type, nestedView)) {
        const fields = fieldsHolding(nested, leaf);
        if (fields.length === 0) miss(`no field of ${nested.path} for ${leaf.targetPaths.join(', ')}`);
        const xmlPath = [element.name, identity.name, ...leaf.xmlPath];
        leaves.push({ ...leaf, xmlPath, targetPaths: fields.map((field) => field.referencePath) });
      }
    } else if (kind === 'complex') {
      for (const leaf of identityLeaves(context, element.type, target)) {
        leaves.push({ ...leaf, xmlPath: [element.name, ...leaf.xmlPath] });
      }
    } else {
      const suffix = kind === 'descriptor' ? 'Descriptor' : kind === 'schoolYear' ? 'TypeReference' : '';
      const property = findProperty(target.shape, [element.name.toLowerCase()], suffix, () => true);
      if (!property) miss('no matching identity property in the target');
      else {
        const targetPath = kind === 'schoolYear' ? `$.${property}.schoolYear` : `$.${property}`;
        leaves.push({
          xmlPath: [element.name],
          targetPaths: [targetPath],
          isSchoolYear: kind === 'schoolYear',
          descriptorType: kind === 'descriptor' ? element.type : undefined,
        });
      }
    }
  }
  return leaves;
}

function insertLeaf(
  children: Record<string, XmlElementMapping | null>,
  xmlPath: readonly string[],
  leaf: XmlElementMapping,
): void {
  const [head, ...rest] = xmlPath;
  if (head === undefined) return;
  if (rest.length === 0) {
    children[head] = leaf;
    return;
  }
  const node = (children[head] ??= { children: {} });
  insertLeaf((node.children ??= {}), rest, leaf);
}

/** The children and IDREF fields of a reference element whose JSON object is `referenceShape`. */
export interface ReferenceElement {
  /** XML location, for reports. */
  readonly location: string;
  /** The XSD type of the reference element (`SessionReferenceType`). */
  readonly referenceType: string;
  readonly reference: ReferenceModel;
  /** The JSON reference object's shape. */
  readonly referenceShape: PropertyShape;
}

export function referenceElementMapping(
  context: MappingContext,
  { location, referenceType, reference, referenceShape }: ReferenceElement,
): Pick<XmlElementMapping, 'children' | 'idref'> {
  const children: Record<string, XmlElementMapping | null> = {};
  const idref: IdrefMapping = { fields: {} };
  for (const field of reference.fields) {
    idref.fields[field.referencePath.slice(reference.path.length + 1)] = field.targetIdentityPaths;
  }
  const { identity, lookup } = identityElements(context, referenceType);
  const view = targetView(context, reference);
  if (!identity || !view) {
    context.unmapped.push({ location, reason: `no identity of ${reference.target}` });
    return { children, idref };
  }
  children[identity.name] = { children: {} };
  for (const leaf of identityLeaves(context, identity.type, view)) {
    const properties = fieldsHolding(reference, leaf).map((field) =>
      field.referencePath.slice(reference.path.length + 1),
    );
    const [first] = properties;
    if (first === undefined) {
      const reason = `no reference field for ${leaf.targetPaths.join(', ')}`;
      context.unmapped.push({ location: `${location}/${leaf.xmlPath.join('/')}`, reason });
      continue;
    }
    const conversion: Pick<XmlElementMapping, 'type' | 'codeValueNamespace'> = leaf.isSchoolYear
      ? { type: 'schoolYear' }
      : leaf.descriptorType
        ? descriptorLeaf(context, leaf.descriptorType)
        : { type: valueTypeOf(referenceShape.properties?.[first]) };
    insertLeaf(children, [identity.name, ...leaf.xmlPath], {
      set: properties.length === 1 ? first : properties,
      ...conversion,
    });
  }
  if (lookup) children[lookup.name] = { unsupported: 'lookup' };
  return { children, idref };
}
