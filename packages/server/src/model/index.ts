// Public surface of the runtime model: types, the registry over the committed model, and compiled accessors.
import {
  addedExtensionModels,
  addExtensionModels,
  removeExtensionModels,
  withAddedExtensions,
} from './added-extensions.js';
import { loadModelData, type ModelData } from './load-model.js';
import { ModelRegistry } from './registry.js';
import { optionalExtensions, servingExtensions } from './served-extensions.js';
import type { ExtensionModel, ProjectNamespace } from './types.js';

export type * from './types.js';
export { MODEL_FORMAT_VERSION } from './types.js';
export { parseJsonPath, isPathWithin, type PathSegment } from './json-path.js';
export { findEdFiInputsDir, findModelDir } from './model-location.js';
export { modelFingerprint } from './model-fingerprint.js';
export { loadExtensionImportFile, loadModelData, type ModelData } from './load-model.js';
export { ExtensionModelError } from './extension-models.js';
export { ModelRegistry } from './registry.js';
export type { DependencyEntry, DependencyOperation } from './dependency-order.js';
export type { ResourceAccessors } from './accessors/resource-accessors.js';
export type { DocumentIdentity } from './accessors/identity-key.js';
export type { DocumentReference, TargetIdentity } from './accessors/references.js';
export type { DocumentDescriptor } from './accessors/descriptors.js';
export type { DocumentSecurables } from './accessors/securables.js';
export {
  compilePathCollector,
  compilePathGetter,
  type PathCollector,
  type PathGetter,
} from './accessors/path-collector.js';

export { ALWAYS_SERVED, optionalExtensions, servingExtensions } from './served-extensions.js';

const registries = new Map<string, ModelRegistry>();
let current: ModelData | undefined;

/** The committed model with the extensions added to the stores this process opened. */
export function modelData(): ModelData {
  current ??= withAddedExtensions(loadModelData());
  return current;
}

/** The process's model without the extension added as `namespace`: what a new part of that name is built against. */
export function modelDataWithout(namespace: ProjectNamespace): ModelData {
  return withAddedExtensions(loadModelData(), namespace);
}

/** The optional extensions the process knows: the shipped ones and those added to its stores, sorted. */
export function knownExtensions(): ProjectNamespace[] {
  return optionalExtensions(modelData());
}

/**
 * Merges extensions added to a store (their recorded models) into the process's model, so registries can serve them.
 * A model that does not merge (another format, a namespace taken, two stores' different ones) is refused.
 */
export function registerExtensionModels(models: readonly ExtensionModel[]): void {
  const fresh = addExtensionModels(models);
  if (fresh.length === 0) return;
  try {
    current = withAddedExtensions(loadModelData());
  } catch (error) {
    removeExtensionModels(fresh);
    throw error;
  }
  registries.clear();
}

/**
 * The registry over the process's model serving the given optional extensions (`sample`, `homograph`, added ones;
 * the Data Standard and TPDM always), loaded on first call per set.
 */
export function getModelRegistry(extensions: readonly string[] = []): ModelRegistry {
  const served = [...new Set(extensions)].sort();
  const key = served.join(',');
  let registry = registries.get(key);
  if (!registry) {
    registry = new ModelRegistry(servingExtensions(modelData(), served), served, addedExtensionModels(served));
    registries.set(key, registry);
  }
  return registry;
}
