// The names the resource catalogue this server implements gives its two namespaces, accepted on every data route as
// aliases of the Ed-Fi names; answers (Location, links) keep the Ed-Fi names.
import type { ProjectNamespace } from '../../model/index.js';

const NAMESPACE_ALIASES: ReadonlyMap<string, ProjectNamespace> = new Map([
  ['core', 'ed-fi'],
  ['ext', 'tpdm'],
]);

/** The Ed-Fi namespace an alias stands for (in any letter case, like the routes), else undefined. */
export function aliasedNamespace(namespace: string): ProjectNamespace | undefined {
  return NAMESPACE_ALIASES.get(namespace.toLowerCase());
}
