// Which optional extensions a store serves. The store records the set at each migration, so every node that opens it
// serves the same one; asking for more adds them (the migration creates their tables), asking for fewer is refused,
// since their documents would be left unreachable. An extension of a user's own is imported from its folder and its
// model recorded in the store with the set; adding it again replaces that record.
import { existsSync, statSync } from 'node:fs';
import {
  getModelRegistry,
  knownExtensions,
  modelDataWithout,
  registerExtensionModels,
  type ModelRegistry,
} from '../model/index.js';
import { buildExtensionPart, readExtensionFolder } from '../model/import/index.js';
import { recordedExtensions, recordedRegistry, redactedSpec } from '../store/index.js';
import { migrateStore, type MigrationReport } from './migration.js';
import { createSqliteFolder } from './store-location.js';

export class ExtensionSetError extends Error {}

/**
 * The registry serving the store's extensions: the recorded set, or `requested` when it keeps every recorded one.
 * Unknown names are refused by the registry.
 */
export async function registryForStore(spec: string, requested?: readonly string[]): Promise<ModelRegistry> {
  createSqliteFolder(spec);
  const recorded = (await recordedRegistry(spec)).extensions;
  if (requested === undefined) return getModelRegistry(recorded);
  const dropped = recorded.filter((name) => !requested.includes(name));
  if (dropped.length > 0) {
    throw new ExtensionSetError(
      `${redactedSpec(spec)} serves the extension${dropped.length > 1 ? 's' : ''} ${dropped.join(', ')}; ` +
        `--extensions must keep ${dropped.length > 1 ? 'them' : 'it'} (its documents would be unreachable)`,
    );
  }
  return getModelRegistry(requested);
}

/** `--extensions sample,homograph` → the names; an empty value means none. */
export function parseExtensionList(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

export interface AddedExtension extends MigrationReport {
  /** The registry the store now serves. */
  readonly registry: ModelRegistry;
}

/**
 * The registry serving the store's extensions and the one of the folder. A part the store recorded under the folder's
 * namespace is replaced, not read: adding again is how an extension recorded in another model format, or changed
 * since, is brought up to date.
 */
async function registryAddingFolder(spec: string, folder: string): Promise<ModelRegistry> {
  const extension = readExtensionFolder(folder);
  const { served, added } = await recordedExtensions(spec);
  registerExtensionModels(added.filter((model) => model.project.namespace !== extension.namespace));
  registerExtensionModels([buildExtensionPart(extension, modelDataWithout(extension.namespace))]);
  return getModelRegistry([...served, extension.namespace]);
}

/**
 * Serves one more extension from the store on: a known one by name (`sample`), or one imported from its folder (the
 * argument names no known extension but a folder), whose model the migration records in the store.
 */
export async function addExtension(spec: string, nameOrFolder: string): Promise<AddedExtension> {
  createSqliteFolder(spec);
  const name = nameOrFolder.toLowerCase();
  const registry =
    !knownExtensions().includes(name) && isFolder(nameOrFolder)
      ? await registryAddingFolder(spec, nameOrFolder)
      : await registryForStore(spec, [...(await recordedRegistry(spec)).extensions, name]);
  return { ...(await migrateStore(spec, registry, 'descriptors')), registry };
}
