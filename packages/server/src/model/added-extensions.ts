// The extensions added to stores (`edfi-api extensions add <folder>`), which each store records as its model part and
// the process merges into the committed model when it opens the store: a registry then serves those its store
// serves. One process may open stores of several (instances); an extension two stores added differently is refused.
import { withExtensionModel, ExtensionModelError } from './extension-models.js';
import type { ModelData } from './load-model.js';
import { MODEL_FORMAT_VERSION, type ExtensionModel, type ProjectNamespace } from './types.js';

const added = new Map<ProjectNamespace, { model: ExtensionModel; text: string }>();

/** Adds extension models to the process's model; returns the namespaces it did not hold yet. */
export function addExtensionModels(models: readonly ExtensionModel[]): ProjectNamespace[] {
  const fresh: ProjectNamespace[] = [];
  for (const model of models) {
    const { namespace } = model.project;
    if (model.formatVersion !== MODEL_FORMAT_VERSION) {
      throw new ExtensionModelError(
        `The extension ${namespace} was added with another model format (${model.formatVersion}, this release reads ` +
          `${MODEL_FORMAT_VERSION}); add it again from its folder with \`edfi-api extensions add <folder> --store …\``,
      );
    }
    const text = JSON.stringify(model);
    const known = added.get(namespace);
    if (known?.text === text) continue;
    if (known) throw new ExtensionModelError(`Two stores added different extensions named ${namespace}`);
    added.set(namespace, { model, text });
    fresh.push(namespace);
  }
  return fresh;
}

/** Takes added extensions out again (ones that turned out not to merge). */
export function removeExtensionModels(namespaces: readonly ProjectNamespace[]): void {
  for (const namespace of namespaces) added.delete(namespace);
}

/** The added extension models among `namespaces`. */
export function addedExtensionModels(namespaces: readonly ProjectNamespace[]): ExtensionModel[] {
  return namespaces.flatMap((namespace) => added.get(namespace)?.model ?? []);
}

/**
 * The committed model with every added extension merged in (by namespace, so any order of adding gives one model),
 * but the one of namespace `except`.
 */
export function withAddedExtensions(committed: ModelData, except?: ProjectNamespace): ModelData {
  return [...added.keys()]
    .filter((namespace) => namespace !== except)
    .sort()
    .reduce((data, namespace) => withExtensionModel(data, added.get(namespace)!.model), committed);
}
