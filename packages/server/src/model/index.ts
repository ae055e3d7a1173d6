// Public surface of the runtime model: types, the registry over the committed model, and compiled accessors.
import { loadModelData } from './load-model.js';
import { ModelRegistry } from './registry.js';

export type * from './types.js';
export { MODEL_FORMAT_VERSION } from './types.js';
export { parseJsonPath, isPathWithin, type PathSegment } from './json-path.js';
export { findEdFiInputsDir, findModelDir } from './model-location.js';
export { modelFingerprint } from './model-fingerprint.js';
export { loadModelData, type ModelData } from './load-model.js';
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

let defaultRegistry: ModelRegistry | undefined;

/** The registry over the package's committed model, loaded on first call. */
export function getModelRegistry(): ModelRegistry {
  defaultRegistry ??= new ModelRegistry(loadModelData());
  return defaultRegistry;
}
