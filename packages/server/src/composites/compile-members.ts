// Resolves the members of a composite definition against the model: each property, collection, embedded object,
// referenced resource and linked collection becomes a MemberPlan, or the definition is refused with the reason.
import type { JsonPath, ModelRegistry, PropertyShape, ResourceModel } from '../model/index.js';
import type { CompositeMember } from './definition.js';
import type { LinkFilter, MemberPlan, MemberSource, ReferencePlan } from './member-plan.js';
import {
  findMember,
  findReference,
  findScalar,
  queryFieldAt,
  referenceTo,
  resourceByPluralName,
  sameName,
  stepsOf,
} from './model-names.js';

/** The member `includeResourceSubtype` adds: the referenced document's resource as the ODS discriminator names it. */
export const SUBTYPE_MEMBER = 'discriminator';

/** Where members are resolved: a document (which has an id and linked collections) or an object inside one. */
interface Scope {
  readonly resource: ResourceModel;
  readonly shape: PropertyShape;
  /** The scope's path in the document: `$` for the document itself, `$.classPeriods[*]` for a collection item. */
  readonly path: JsonPath;
  /** Where errors say the member was. */
  readonly location: string;
}

export class MemberCompiler {
  constructor(private readonly registry: ModelRegistry) {}

  document(resource: ResourceModel, members: readonly CompositeMember[], location: string): MemberPlan[] {
    const scope = { resource, shape: resource.shape, path: '$', location };
    return members.map((member) => this.#member(member, scope, 'reference'));
  }

  #fail(scope: Scope, message: string): never {
    throw new Error(`${scope.location}: ${message}`);
  }

  #member(member: CompositeMember, scope: Scope, source: MemberSource): MemberPlan {
    const isDocument = scope.path === '$';
    switch (member.kind) {
      case 'property': {
        if (sameName(member.name, 'Id')) {
          if (!isDocument) this.#fail(scope, `'Id' is a property of documents, not of ${scope.path}`);
          const shape: PropertyShape = { type: 'string' };
          return { kind: 'value', output: member.displayName ?? 'id', source, read: 'id', shape };
        }
        const found = findScalar(scope.shape, member.name);
        if (!found) this.#fail(scope, `${scope.resource.resourceName} has no property '${member.name}'`);
        const output = member.displayName ?? found.steps.at(-1)!;
        return { kind: 'value', output, source, read: found.steps, shape: found.shape };
      }
      case 'collection':
      case 'embeddedObject': {
        const type = member.kind === 'collection' ? 'array' : 'object';
        const found = findMember(scope.shape, member.name, type);
        const shape = type === 'array' ? found?.shape.items : found?.shape;
        if (!found || !shape)
          this.#fail(scope, `${scope.resource.resourceName} has no ${member.kind} '${member.name}'`);
        const inner: Scope = {
          ...scope,
          shape,
          path: `${scope.path}.${found.json}${type === 'array' ? '[*]' : ''}`,
          location: `${scope.location} ${member.name}`,
        };
        const members = member.members.map((child) => this.#member(child, inner, 'reference'));
        if (member.kind === 'collection')
          return {
            kind: 'array',
            output: member.displayName ?? found.json,
            source,
            steps: [found.json],
            items: members,
          };
        const output = member.flatten ? undefined : (member.displayName ?? found.json);
        return { kind: 'object', output, source, steps: [found.json], members };
      }
      case 'referencedResource':
        return this.#reference(member, scope, source);
      case 'linkedCollection':
        if (!isDocument) this.#fail(scope, `a linked collection belongs to a document, not to ${scope.path}`);
        return this.#linked(member, scope, source);
    }
  }

  #reference(
    member: Extract<CompositeMember, { kind: 'referencedResource' }>,
    scope: Scope,
    source: MemberSource,
  ): ReferencePlan {
    const found = findReference(scope.resource, scope.path, member.name);
    if (!found) this.#fail(scope, `${scope.resource.resourceName} has no reference '${member.name}'`);
    const { reference } = found;
    const target = reference.targetIsAbstract
      ? undefined
      : this.registry.getResourceByName(reference.target, reference.targetNamespace);
    const location = `${scope.location} ${member.name}`;
    const onReference: Scope = { resource: scope.resource, shape: found.shape, path: reference.path, location };
    const members = member.members.map((child): MemberPlan => {
      if (child.kind === 'property' && (sameName(child.name, 'Id') || findScalar(found.shape, child.name))) {
        if (sameName(child.name, 'Id')) {
          const shape: PropertyShape = { type: 'string' };
          return { kind: 'value', output: child.displayName ?? 'id', source: 'reference', read: 'id', shape };
        }
        return this.#member(child, onReference, 'reference');
      }
      if (!target) this.#fail(onReference, `'${child.name}' is not a field of a reference to an abstract resource`);
      return this.#member(child, { resource: target, shape: target.shape, path: '$', location }, 'target');
    });
    return {
      kind: 'reference',
      output: member.flatten ? undefined : (member.displayName ?? found.json),
      source,
      steps: [found.json],
      target,
      subtypeOutput: member.includeResourceSubtype ? SUBTYPE_MEMBER : undefined,
      members,
    };
  }

  #linked(
    member: Extract<CompositeMember, { kind: 'linkedCollection' }>,
    scope: Scope,
    source: MemberSource,
  ): MemberPlan {
    const linked = resourceByPluralName(this.registry, member.name);
    if (!linked) this.#fail(scope, `no resource '${member.name}' to link`);
    const reference = referenceTo(linked, scope.resource);
    if (!reference) this.#fail(scope, `${linked.resourceName} has no reference to ${scope.resource.resourceName}`);
    const filters = reference.fields.map((field): LinkFilter => {
      const queryField = queryFieldAt(linked, field.referencePath);
      if (!queryField) this.#fail(scope, `${linked.resourceName} cannot be queried by ${field.referencePath}`);
      return { field: queryField, steps: stepsOf(field.targetIdentityPaths[0]!) };
    });
    const location = `${scope.location} ${member.name}`;
    return {
      kind: 'linked',
      output: member.displayName ?? linked.endpoint,
      source,
      resource: linked,
      filters,
      members: this.document(linked, member.members, location),
    };
  }
}
