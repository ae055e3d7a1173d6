// Adds the ODS member name to every shape node whose name the ODS spells other than the capitalised JSON name:
// scalars from the DDL columns, collections and inline objects from the child entities they are stored in.
import { parseJsonPath } from '../json-path.js';
import type { JsonPath, PropertyShape, ResourceModel } from '../types.js';
import type { OdsEntity, OdsNames } from './ods-names.js';

function capitalised(jsonName: string): string {
  return jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

/** The node with `memberName` placed right after `type` (omitted when it is the capitalised JSON name). */
function named(jsonName: string, node: PropertyShape, memberName: string | undefined): PropertyShape {
  if (memberName === undefined || memberName === capitalised(jsonName)) return node;
  const { type, ...rest } = node;
  return { type, memberName, ...rest };
}

/** The object's members with their ODS names, its entities being `parents`. */
export function nameMembers(shape: PropertyShape, parents: readonly OdsEntity[], names: OdsNames): PropertyShape {
  const properties: Record<string, PropertyShape> = {};
  for (const [jsonName, node] of Object.entries(shape.properties ?? {})) {
    properties[jsonName] = nameMember(jsonName, node, parents, names);
  }
  return { ...shape, properties };
}

function nameMember(
  jsonName: string,
  node: PropertyShape,
  parents: readonly OdsEntity[],
  names: OdsNames,
): PropertyShape {
  if (jsonName === '_ext') {
    const projects = Object.entries(node.properties ?? {}).map(([project, members]) => [
      project,
      nameMembers(members, parents, names),
    ]);
    return { ...node, properties: Object.fromEntries(projects) as Record<string, PropertyShape> };
  }
  if (node.type === 'array') {
    const child = names.childEntity(parents, jsonName, true);
    const items = nameMembers(node.items ?? { type: 'object' }, [child.entity], names);
    return named(jsonName, { ...node, items }, child.memberName);
  }
  if (node.type === 'object' && node.kind === 'reference') return nameMembers(node, parents, names);
  if (node.type === 'object') {
    const child = names.childEntity(parents, jsonName, false);
    return named(jsonName, nameMembers(node, [child.entity], names), child.memberName);
  }
  // An inline common's only member may keep the collection's plural column name (Sample's `PortfolioYears`).
  const memberName = names.propertyName(jsonName) ?? names.propertyName(`${jsonName}s`);
  if (memberName === undefined) throw new Error(`No ODS column for ${parents[0]?.name}.${jsonName}`);
  return named(jsonName, node, memberName);
}

function rootEntity(names: OdsNames, schema: string, name: string): OdsEntity {
  const root = names.rootEntity(schema, name);
  if (!root) throw new Error(`No ODS table ${schema}.${name}`);
  return root;
}

type NamedResource = Pick<ResourceModel, 'namespace' | 'resourceName' | 'superclass' | 'shape'>;

/** A resource's root entities: its own table and, for a subclass, its superclass's. */
function rootEntities(resource: NamedResource, names: OdsNames): OdsEntity[] {
  const roots = [
    rootEntity(names, resource.namespace === 'ed-fi' ? 'edfi' : resource.namespace, resource.resourceName),
  ];
  if (resource.superclass) roots.push(rootEntity(names, 'edfi', resource.superclass.resourceName));
  return roots;
}

/** The resource's shape with member names; a subclass's members may also belong to its superclass entity. */
export function withMemberNames(resource: NamedResource, names: OdsNames): PropertyShape {
  return nameMembers(resource.shape, rootEntities(resource, names), names);
}

/** The entities of the object at `path` in the resource (`$`: its roots; `$.addresses[*]`: the address entity). */
export function entitiesAt(resource: NamedResource, path: JsonPath, names: OdsNames): OdsEntity[] {
  let parents = rootEntities(resource, names);
  let node: PropertyShape | undefined = resource.shape;
  for (const segment of parseJsonPath(path)) {
    const member: PropertyShape | undefined = node?.properties?.[segment.name];
    if (!member) throw new Error(`No member ${segment.name} in ${resource.resourceName} for ${path}`);
    parents = [names.childEntity(parents, segment.name, segment.isArray).entity];
    node = segment.isArray ? member.items : member;
  }
  return parents;
}
