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

export interface AddedExtensions extends MigrationReport {
  /** The registry the store now serves. */
  readonly registry: ModelRegistry;
}

/**
 * The registry serving the store's extensions and those named or in the folders. A part the store recorded under a
 * folder's namespace is replaced, not read: adding again is how extensions recorded in another model format (all
 * of them at once), or changed since, are brought up to date.
 */
async function registryAdding(spec: string, namesOrFolders: readonly string[]): Promise<ModelRegistry> {
  const isNamed = (nameOrFolder: string) => knownExtensions().includes(nameOrFolder.toLowerCase());
  const folders = namesOrFolders.filter((nameOrFolder) => !isNamed(nameOrFolder) && isFolder(nameOrFolder));
  const names = namesOrFolders.filter((nameOrFolder) => !folders.includes(nameOrFolder));
  const extensions = folders.map(readExtensionFolder);
  const replaced = extensions.map((extension) => extension.namespace);
  const { served, added } = await recordedExtensions(spec);
  registerExtensionModels(added.filter((model) => !replaced.includes(model.project.namespace)));
  for (const extension of extensions)
    registerExtensionModels([buildExtensionPart(extension, modelDataWithout(extension.namespace))]);
  return getModelRegistry([...served, ...replaced, ...names.map((name) => name.toLowerCase())]);
}

/**
 * Serves more extensions from the store on: known ones by name (`sample`), or ones imported from their folders (an
 * argument naming no known extension but a folder), whose models the migration records in the store.
 */
export async function addExtensions(spec: string, namesOrFolders: readonly string[]): Promise<AddedExtensions> {
  createSqliteFolder(spec);
  const registry = await registryAdding(spec, namesOrFolders);
  return { ...(await migrateStore(spec, registry, 'descriptors')), registry };
}
