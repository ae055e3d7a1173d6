// Compiles a resource's reference reader: every reference object in a document (including inside collections),
// with the target identity built from the reference fields in the target's identity-path order.
import type { JsonPath, ReferenceModel, ResourceModel } from '../types.js';
import { compileIdentityKey, type DocumentIdentity } from './identity-key.js';
import { compilePathCollector } from './path-collector.js';

/** What a reference must match in its target: identity paths (sorted) and which of them hold descriptors. */
export interface TargetIdentity {
  identityPaths: readonly JsonPath[];
  descriptorPaths: ReadonlySet<JsonPath>;
}

export interface DocumentReference {
  reference: ReferenceModel;
  /** Concrete path of the reference object, e.g. `$.classPeriods[1].classPeriodReference`. */
  path: string;
  /** Values in the target's identity-path order; `key` equals the target document's identity key. */
  targetIdentity: DocumentIdentity;
  /** Every target identity value is present. */
  isComplete: boolean;
}

export type ReferencesReader = (document: unknown) => DocumentReference[];

function compileOne(reference: ReferenceModel, target: TargetIdentity) {
  const fieldByTargetPath = new Map<JsonPath, string>();
  for (const field of reference.fields) {
    const fieldName = field.referencePath.slice(reference.path.length + 1);
    for (const targetPath of field.targetIdentityPaths) fieldByTargetPath.set(targetPath, fieldName);
  }
  const fieldNames = target.identityPaths.map((targetPath) => {
    const name = fieldByTargetPath.get(targetPath);
    if (name === undefined)
      throw new Error(`Reference ${reference.path} has no field for target identity ${targetPath}`);
    return name;
  });
  const buildKey = compileIdentityKey(target.identityPaths, target.descriptorPaths);
  const collect = compilePathCollector(reference.path);
  return (document: unknown, found: DocumentReference[]): void =>
    collect(document, (value, path) => {
      if (typeof value !== 'object') return;
      const fields = value as Record<string, unknown>;
      const values = fieldNames.map((name) => fields[name]);
      const isComplete = values.every((item) => item !== undefined && item !== null);
      found.push({ reference, path, targetIdentity: buildKey(values), isComplete });
    });
}

export function compileReferencesReader(
  resource: ResourceModel,
  targetOf: (reference: ReferenceModel) => TargetIdentity,
): ReferencesReader {
  const readers = resource.references.map((reference) => compileOne(reference, targetOf(reference)));
  return (document) => {
    const found: DocumentReference[] = [];
    for (const read of readers) read(document, found);
    return found;
  };
}
