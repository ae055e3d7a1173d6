// A profile content type resolved against the model: at each level of a resource's JSON shape, which members are
// included, the rules of the nested levels, and the collection item filters. Names the model does not have are
// collected as problems (the profile is then misconfigured, contract §9.1 406).
import type { CollectionModel, PropertyShape, ResourceModel } from '../model/index.js';
import type { CollectionContent, FilterMode, MemberContent, NamedContent } from './definition.js';

export interface ItemFilterPolicy {
  /** The JSON name of the item's descriptor member. */
  readonly member: string;
  readonly mode: FilterMode;
  /** Lower-cased values; each matches a descriptor's code value or its whole URI. */
  readonly values: ReadonlySet<string>;
}

export interface LevelPolicy {
  readonly shape: PropertyShape;
  /** JSON names of the included members; members of the shape not in here are excluded. */
  readonly included: ReadonlySet<string>;
  /** Rules of included embedded objects, collection items (by the collection's name) and `_ext`. */
  readonly children: ReadonlyMap<string, LevelPolicy>;
  readonly filters: ReadonlyMap<string, ItemFilterPolicy>;
  /** JSON names of the members that identify a collection item (empty elsewhere). */
  readonly itemIdentity: readonly string[];
  /** The ODS class name of a collection item, for the data-policy messages. */
  readonly className: string;
}

const EXT = '_ext';

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The ODS member name of a JSON member (see PropertyShape.memberName). */
export function odsMemberName(jsonName: string, shape: PropertyShape): string {
  return shape.memberName ?? capitalized(jsonName);
}

/** The ODS class of a collection's items: its collection member name in the singular. */
export function itemClassName(collectionMemberName: string): string {
  if (collectionMemberName.endsWith('ies')) return `${collectionMemberName.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(collectionMemberName)) return collectionMemberName.slice(0, -2);
  return collectionMemberName.endsWith('s') ? collectionMemberName.slice(0, -1) : collectionMemberName;
}

type MemberKind = 'property' | 'object' | 'collection';

const ARTICLED: Record<MemberKind, string> = {
  property: 'a property',
  object: 'an object',
  collection: 'a collection',
};

function kindOf(shape: PropertyShape): MemberKind {
  if (shape.type === 'array') return 'collection';
  return shape.type === 'object' && shape.kind !== 'reference' ? 'object' : 'property';
}

class PolicyCompiler {
  readonly problems: string[] = [];

  constructor(
    private readonly resource: ResourceModel,
    private readonly contentName: string,
  ) {}

  #problem(message: string): void {
    this.problems.push(`Resource '${this.resource.resourceName}' (${this.contentName}): ${message}`);
  }

  /** The JSON name a profile name refers to: the ODS member name or the JSON name, either case. */
  #memberNamed(shape: PropertyShape, name: string, kind: MemberKind, where: string): string | undefined {
    const wanted = name.toLowerCase();
    for (const [jsonName, member] of Object.entries(shape.properties ?? {})) {
      if (jsonName === EXT) continue;
      if (jsonName.toLowerCase() !== wanted && odsMemberName(jsonName, member).toLowerCase() !== wanted) continue;
      if (kindOf(member) === kind) return jsonName;
      this.#problem(`'${name}' in ${where} is not ${ARTICLED[kind]}.`);
      return undefined;
    }
    this.#problem(`${kind} '${name}' is not a member of ${where}.`);
    return undefined;
  }

  level(content: MemberContent, shape: PropertyShape, where: string, collection?: CollectionModel): LevelPolicy {
    const members = Object.entries(shape.properties ?? {});
    const itemIdentity = collection === undefined ? [] : identityMembersOf(collection);
    const identity = new Set([
      ...members.filter(([, member]) => member.isIdentity === true).map(([name]) => name),
      ...itemIdentity,
    ]);
    const selection = content.memberSelection;
    const included = new Set<string>(
      selection === 'IncludeAll' || selection === 'ExcludeOnly' ? members.map(([name]) => name) : identity,
    );
    if (selection === 'IncludeOnly' || selection === 'ExcludeOnly') {
      for (const property of content.properties) {
        const name = this.#memberNamed(shape, property, 'property', where);
        if (name === undefined) continue;
        if (selection === 'IncludeOnly') included.add(name);
        else if (!identity.has(name)) included.delete(name);
      }
    } else {
      // IncludeAll and ExcludeAll decide every property; listed ones must still exist.
      content.properties.forEach((property) => this.#memberNamed(shape, property, 'property', where));
    }
    const children = new Map<string, LevelPolicy>();
    const filters = new Map<string, ItemFilterPolicy>();
    const nested = (child: NamedContent, kind: MemberKind): void => {
      const name = this.#memberNamed(shape, child.name, kind, where);
      if (name === undefined) return;
      included.add(name);
      const member = shape.properties![name]!;
      const childWhere = `${kind} '${child.name}'`;
      if (kind === 'object') {
        children.set(name, { ...this.level(child, member, childWhere), className: odsMemberName(name, member) });
        return;
      }
      const items = member.items ?? { type: 'object' };
      const model = this.#collectionAt(shape, name);
      const className = itemClassName(odsMemberName(name, member));
      children.set(name, { ...this.level(child, items, childWhere, model), className });
      const { filter } = child as CollectionContent;
      if (filter !== undefined) {
        const descriptor = this.#memberNamed(items, filter.propertyName, 'property', `the filter of ${childWhere}`);
        if (descriptor !== undefined)
          filters.set(name, {
            member: descriptor,
            mode: filter.filterMode,
            values: new Set(filter.values.map((value) => value.toLowerCase())),
          });
      }
    };
    content.objects.forEach((object) => nested(object, 'object'));
    content.collections.forEach((collection) => nested(collection, 'collection'));
    const extension = this.#extensionLevel(content, shape, where, selection);
    if (extension === undefined) included.delete(EXT);
    else if (extension !== 'whole') {
      included.add(EXT);
      children.set(EXT, extension);
    }
    return { shape, included, children, filters, itemIdentity, className: this.resource.resourceName };
  }

  /** The `_ext` member's rules: 'whole' when it is included as it is, undefined when excluded. */
  #extensionLevel(
    content: MemberContent,
    shape: PropertyShape,
    where: string,
    selection: MemberContent['memberSelection'],
  ): LevelPolicy | 'whole' | undefined {
    const extShape = shape.properties?.[EXT];
    const wholeByDefault = selection === 'IncludeAll' || selection === 'ExcludeOnly';
    if (content.extensions.length === 0) return wholeByDefault && extShape !== undefined ? 'whole' : undefined;
    const projects = Object.keys(extShape?.properties ?? {});
    const included = new Set<string>(wholeByDefault ? projects : []);
    const children = new Map<string, LevelPolicy>();
    for (const extension of content.extensions) {
      const project = projects.find((name) => name.toLowerCase() === extension.name.toLowerCase());
      if (project === undefined) {
        this.#problem(`extension '${extension.name}' does not extend ${where}.`);
        continue;
      }
      included.add(project);
      const level = this.level(extension, extShape!.properties![project]!, `extension '${extension.name}'`);
      children.set(project, { ...level, className: `${this.resource.resourceName}Extension` });
    }
    const filters = new Map<string, ItemFilterPolicy>();
    return { shape: extShape ?? { type: 'object' }, included, children, filters, itemIdentity: [], className: '' };
  }

  #collectionAt(shape: PropertyShape, name: string): CollectionModel | undefined {
    // The collection models are keyed by path; find the one whose items are this shape's member.
    const items = shape.properties?.[name]?.items;
    return this.resource.collections.find((collection) => shapeAtPath(this.resource.shape, collection.path) === items);
  }
}

/** The shape a collection path (`$.a[*].b[*]`) names. */
function shapeAtPath(root: PropertyShape, path: string): PropertyShape | undefined {
  let shape: PropertyShape | undefined = root;
  for (const segment of path.slice(2).split('.')) {
    const name = segment.endsWith('[*]') ? segment.slice(0, -3) : segment;
    shape = shape?.properties?.[name];
    if (segment.endsWith('[*]')) shape = shape?.items;
  }
  return shape;
}

function identityMembersOf(collection: CollectionModel): string[] {
  return [...new Set(collection.itemIdentity.map((path) => path.slice(2).split(/[.[]/)[0]!))];
}

export interface CompiledContent {
  readonly policy: LevelPolicy;
  readonly problems: readonly string[];
}

export function compileContent(resource: ResourceModel, content: MemberContent, contentName: string): CompiledContent {
  const compiler = new PolicyCompiler(resource, contentName);
  const policy = compiler.level(content, resource.shape, `resource '${resource.resourceName}'`);
  return { policy, problems: compiler.problems };
}
