// Which optional extensions a store serves. The store records the set at each migration, so every node that opens it
// serves the same one; asking for more adds them (the migration creates their tables), asking for fewer is refused,
// since their documents would be left unreachable.
import { getModelRegistry, type ModelRegistry } from '../model/index.js';
import { recordedRegistry, redactedSpec } from '../store/index.js';
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
