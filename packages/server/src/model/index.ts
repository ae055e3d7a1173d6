// Public surface of the runtime model: types, the registry over the committed model, and compiled accessors.
import { loadModelData } from './load-model.js';
import { ModelRegistry } from './registry.js';
import { servingExtensions } from './served-extensions.js';

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

export { ALWAYS_SERVED, optionalExtensions, servingExtensions } from './served-extensions.js';

const registries = new Map<string, ModelRegistry>();

/**
 * The registry over the package's committed model serving the given optional extensions (`sample`, `homograph`;
 * the Data Standard and TPDM always), loaded on first call per set.
 */
export function getModelRegistry(extensions: readonly string[] = []): ModelRegistry {
  const served = [...new Set(extensions)].sort();
  const key = served.join(',');
  let registry = registries.get(key);
  if (!registry) {
    registry = new ModelRegistry(servingExtensions(loadModelData(), served), served);
    registries.set(key, registry);
  }
  return registry;
}
