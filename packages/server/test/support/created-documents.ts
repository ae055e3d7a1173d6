// Documents created during a test run, by resource: they supply the targets of later documents' references
// (abstract targets resolve to a concrete subclass) and answer which created document a reference points to.
import {
  compilePathGetter,
  type ModelRegistry,
  type ReferenceModel,
  type ResourceModel,
} from '../../src/model/index.js';
import type { JsonObject, ResourceDocument } from '../../src/model/validation/index.js';
import type { DocumentReference } from '../../src/model/index.js';
import type { ReferenceResolver } from '../../src/testing/index.js';

export interface CreatedDocument {
  readonly resource: ResourceModel;
  readonly id: string;
  readonly document: ResourceDocument;
}

function setPath(target: JsonObject, path: string, value: unknown): void {
  const names = path.slice(2).split('.');
  let node = target;
  for (const name of names.slice(0, -1)) node = (node[name] ??= {}) as JsonObject;
  node[names[names.length - 1]!] = value as JsonObject;
}

/**
 * Deletes the reference at a concrete path such as `$._ext.tpdm.items[1].someReference`; inside a collection the whole
 * item goes when the reference is required there or was all the item held.
 */
function removeReference(document: JsonObject, path: string, required: boolean): void {
  const steps = [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((match) => match[1] ?? Number(match[2]));
  const nodes: Record<string | number, unknown>[] = [document];
  for (const step of steps.slice(0, -1)) nodes.push(nodes[nodes.length - 1]![step] as Record<string | number, unknown>);
  const parent = nodes[nodes.length - 1]!;
  delete parent[steps[steps.length - 1]!];
  const itemIndex = steps[steps.length - 2];
  if (typeof itemIndex !== 'number') {
    if (required) throw new Error(`No document for the required reference ${path}`);
    return;
  }
  if (required || Object.keys(parent).length === 0)
    (nodes[nodes.length - 2] as unknown as unknown[]).splice(itemIndex, 1);
}

export class CreatedDocuments {
  private readonly byResource = new Map<ResourceModel, CreatedDocument[]>();

  constructor(private readonly registry: ModelRegistry) {}

  add(created: CreatedDocument): void {
    const list = this.byResource.get(created.resource) ?? [];
    list.push(created);
    this.byResource.set(created.resource, list);
  }

  /** Keeps the document's place (its creation order) with its new content. */
  replace(old: CreatedDocument, replacement: CreatedDocument): void {
    const list = this.byResource.get(old.resource) ?? [];
    list[list.indexOf(old)] = replacement;
  }

  /** Every created document, oldest first. */
  all(): CreatedDocument[] {
    return [...this.byResource.values()].flat();
  }

  /** References of the n-th variant point to the n-th document of each target (or the last one there is). */
  resolver(variant: number): ReferenceResolver {
    return ({ reference }) => {
      const created = this.targetOf(reference, variant);
      if (created === undefined) return undefined;
      return reference.targetIsAbstract ? this.abstractIdentityOf(reference, created) : created.document;
    };
  }

  /**
   * The document without the optional references this run cannot satisfy: a reference cycle is broken at an optional
   * reference, so its target comes later in load order. A required reference without target is a test failure.
   */
  withoutMissingOptionalReferences(resource: ResourceModel, document: ResourceDocument): ResourceDocument {
    const missing = this.registry
      .accessorsOf(resource)
      .referencesOf(document)
      .filter((reference) => this.find(reference) === undefined);
    for (const { reference, path } of missing.reverse()) removeReference(document, path, reference.required);
    return document;
  }

  /** The created document a complete reference names, if any. */
  find(reference: DocumentReference): CreatedDocument | undefined {
    for (const target of this.targetsOf(reference.reference)) {
      const accessors = this.registry.accessorsOf(target);
      const identityOf = reference.reference.targetIsAbstract ? accessors.superclassIdentityOf : accessors.identityOf;
      const match = this.byResource
        .get(target)
        ?.find((created) => identityOf?.(created.document).key === reference.targetIdentity.key);
      if (match !== undefined) return match;
    }
    return undefined;
  }

  private targetsOf(reference: ReferenceModel): ResourceModel[] {
    return this.registry.resolveTarget(reference.targetNamespace, reference.target);
  }

  private targetOf(reference: ReferenceModel, variant: number): CreatedDocument | undefined {
    for (const target of this.targetsOf(reference)) {
      const list = this.byResource.get(target);
      if (list !== undefined && list.length > 0) return list[Math.min(variant, list.length - 1)];
    }
    return undefined;
  }

  /** The abstract identity (e.g. `{ educationOrganizationId }`) of a concrete document. */
  private abstractIdentityOf(reference: ReferenceModel, created: CreatedDocument): JsonObject {
    const abstract = this.registry.getAbstractResource(reference.target);
    const rename = created.resource.superclass?.identityRename;
    const identity: JsonObject = {};
    for (const path of abstract?.identityPaths ?? []) {
      const concretePath = rename?.to === path ? rename.from : path;
      setPath(identity, path, compilePathGetter(concretePath)(created.document));
    }
    return identity;
  }
}
