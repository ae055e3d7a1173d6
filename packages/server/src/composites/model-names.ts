// Finding the model's members and resources by the ODS names a composite definition uses (PascalCase entity and
// property names, compared case-insensitively): a JSON member's ODS name is its `memberName`, or its name capitalised.
import type { JsonPath, ModelRegistry, PropertyShape, ReferenceModel, ResourceModel } from '../model/index.js';

export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function odsNameOf(jsonName: string, shape: PropertyShape): string {
  return shape.memberName ?? jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

function isScalar(shape: PropertyShape): boolean {
  return shape.type !== 'object' && shape.type !== 'array';
}

function membersOf(shape: PropertyShape): [string, PropertyShape][] {
  return Object.entries(shape.properties ?? {});
}

/** A scalar of the object, or a field of one of its references (`StateEducationAgencyId`), as steps. */
export function findScalar(shape: PropertyShape, name: string): { steps: string[]; shape: PropertyShape } | undefined {
  for (const [json, member] of membersOf(shape))
    if (isScalar(member) && sameName(odsNameOf(json, member), name)) return { steps: [json], shape: member };
  for (const [json, member] of membersOf(shape)) {
    if (member.kind !== 'reference') continue;
    for (const [field, fieldShape] of membersOf(member))
      if (isScalar(fieldShape) && sameName(odsNameOf(field, fieldShape), name))
        return { steps: [json, field], shape: fieldShape };
  }
  return undefined;
}

/** An array (collection) or a non-reference object (embedded object) of the object by its ODS name. */
export function findMember(
  shape: PropertyShape,
  name: string,
  type: 'array' | 'object',
): { json: string; shape: PropertyShape } | undefined {
  for (const [json, member] of membersOf(shape))
    if (member.type === type && member.kind !== 'reference' && sameName(odsNameOf(json, member), name))
      return { json, shape: member };
  return undefined;
}

/** A reference object of the object, `SessionReference` → `sessionReference`. */
export function findReference(
  resource: ResourceModel,
  basePath: JsonPath,
  name: string,
): { json: string; shape: PropertyShape; reference: ReferenceModel } | undefined {
  for (const reference of resource.references) {
    const json = reference.path.slice(reference.path.lastIndexOf('.') + 1);
    if (`${basePath}.${json}` === reference.path && sameName(json, name)) {
      const shape = shapeAtPath(resource, reference.path);
      if (shape) return { json, shape, reference };
    }
  }
  return undefined;
}

export function shapeAtPath(resource: ResourceModel, path: JsonPath): PropertyShape | undefined {
  let shape: PropertyShape | undefined = resource.shape;
  for (const part of stepsOf(path)) {
    const isArray = part.endsWith('[*]');
    shape = shape?.properties?.[isArray ? part.slice(0, -3) : part];
    if (isArray) shape = shape?.items;
  }
  return shape;
}

/** `$.a.b` as `['a', 'b']`. */
export function stepsOf(path: JsonPath): string[] {
  return path.slice(2).split('.');
}

/** A resource by its plural ODS name (`StudentSchoolAssociations`), ed-fi before tpdm. */
export function resourceByPluralName(registry: ModelRegistry, name: string): ResourceModel | undefined {
  return registry.getResource('ed-fi', name) ?? registry.getResource('tpdm', name);
}

/** The query field of a resource that matches exactly this document path. */
export function queryFieldAt(resource: ResourceModel, path: JsonPath): string | undefined {
  return Object.entries(resource.queryFields).find(([, paths]) => paths.includes(path))?.[0];
}

/** The references of `from` at its top level that point at `to` (by name, or through its superclass). */
export function referencesTo(from: ResourceModel, to: ResourceModel): ReferenceModel[] {
  return from.references.filter(
    (reference) =>
      !reference.path.includes('[*]') &&
      stepsOf(reference.path).length === 1 &&
      reference.target === to.resourceName &&
      !reference.targetIsAbstract,
  );
}

/** The one reference of `from` to `to`, preferring `{to}Reference` when there are several. */
export function referenceTo(from: ResourceModel, to: ResourceModel): ReferenceModel | undefined {
  const candidates = referencesTo(from, to);
  if (candidates.length <= 1) return candidates[0];
  return candidates.find((reference) => sameName(reference.path, `$.${to.resourceName}Reference`));
}

/** The first document path of a query field, as steps joined by `.` (`schoolReference.schoolId`). */
export function queryFieldsPathOf(resource: ResourceModel, field: string): string | undefined {
  const path = resource.queryFields[field]?.[0];
  return path === undefined ? undefined : stepsOf(path).join('.');
}
