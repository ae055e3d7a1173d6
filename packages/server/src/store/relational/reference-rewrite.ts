// Identity cascades (contract §4.6): rewrites, in a referrer's stored body, the reference objects that point at a
// document whose natural key changed. Their `link` names the target by id, which does not change, so it stays.
import type { JsonPath, ModelRegistry, ReferenceModel, ResourceModel } from '../../model/index.js';
import { stepsOf, type Node } from './reference-links.js';

/** A document whose natural key changed: what references to it held, and what they must hold now. */
export interface ChangedTarget {
  readonly resource: ResourceModel;
  readonly oldIdentityKey: string;
  /** New values by the target's identity path. */
  readonly newValues: ReadonlyMap<JsonPath, unknown>;
}

interface ReferenceField {
  readonly name: string;
  readonly targetPath: JsonPath;
}

const fieldsByReference = new WeakMap<ReferenceModel, readonly ReferenceField[]>();

function fieldsOf(reference: ReferenceModel): readonly ReferenceField[] {
  let fields = fieldsByReference.get(reference);
  if (fields === undefined) {
    fields = reference.fields.map((field) => ({
      name: field.referencePath.slice(reference.path.length + 1),
      // Several target paths mean a key unified in the target: they hold one value.
      targetPath: field.targetIdentityPaths[0]!,
    }));
    fieldsByReference.set(reference, fields);
  }
  return fields;
}

function nodeAt(body: Node, concretePath: string): Node {
  let node = body;
  for (const step of stepsOf(concretePath)) node = node[step] as Node;
  return node;
}

/** Rewrites the body in place; false when no reference in it points at the changed document. */
export function rewriteReferences(
  registry: ModelRegistry,
  referrer: ResourceModel,
  body: Node,
  changed: ChangedTarget,
): boolean {
  const { resourceName, namespace } = changed.resource;
  let rewritten = false;
  for (const { reference, path, targetIdentity } of registry.accessorsOf(referrer).referencesOf(body)) {
    if (reference.target !== resourceName || reference.targetNamespace !== namespace) continue;
    if (targetIdentity.key !== changed.oldIdentityKey) continue;
    const node = nodeAt(body, path);
    for (const field of fieldsOf(reference)) node[field.name] = changed.newValues.get(field.targetPath);
    rewritten = true;
  }
  return rewritten;
}
