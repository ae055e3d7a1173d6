// What a migration compares to decide whether a store's record of its extensions is the registry's.
import type { ExtensionModel, ModelRegistry } from '../model/index.js';

/**
 * Whether a store recording `served` and the `added` models records what the registry serves: its set, and each
 * added extension's model as it is now. A re-added extension's new part (another model format, say) must be recorded
 * even when it changes no table.
 */
export function recordsExtensionsOf(
  served: readonly string[],
  added: readonly ExtensionModel[],
  registry: ModelRegistry,
): boolean {
  const recorded = new Map(added.map((model) => [model.project.namespace, JSON.stringify(model)]));
  return (
    served.join(',') === registry.extensions.join(',') &&
    registry.addedExtensions.every((model) => recorded.get(model.project.namespace) === JSON.stringify(model))
  );
}
