// What `profiles import|list|export|delete` and the admin API do with a store: definitions are checked against the
// XSD's rules before anything is saved (all or nothing), stored one profile per record, and exported as one document.
import type { ModelRegistry } from '../model/index.js';
import type { ProfileStore } from '../store/store.js';
import { compileProfile } from './compiled-profile.js';
import type { ProfileDefinition } from './definition.js';
import { parseProfilesXml } from './profile-xml.js';
import { profilesXml } from './profile-xml-writer.js';

export interface ProfileSummary {
  readonly name: string;
  /** Resource names the profile covers, as defined. */
  readonly resources: readonly string[];
  /** Why requests through it are refused (406) as misconfigured; empty when it is valid for this model. */
  readonly problems: readonly string[];
}

function summaryOf(registry: ModelRegistry, definition: ProfileDefinition): ProfileSummary {
  return {
    name: definition.name,
    resources: definition.resources.map((resource) => resource.name),
    problems: compileProfile(registry, definition).problems,
  };
}

/** Saves the profiles of the XML; a ProfileDefinitionError, with nothing saved, when it is invalid. */
export async function importProfiles(
  store: Pick<ProfileStore, 'saveProfiles'>,
  registry: ModelRegistry,
  xml: string,
): Promise<ProfileSummary[]> {
  const definitions = parseProfilesXml(xml);
  await store.saveProfiles(
    definitions.map((definition) => ({ name: definition.name, definition: profilesXml([definition]) })),
  );
  return definitions.map((definition) => summaryOf(registry, definition));
}

async function storedDefinitions(store: Pick<ProfileStore, 'listProfiles'>): Promise<ProfileDefinition[]> {
  return (await store.listProfiles()).flatMap((stored) => parseProfilesXml(stored.definition));
}

export async function listProfiles(
  store: Pick<ProfileStore, 'listProfiles'>,
  registry: ModelRegistry,
): Promise<ProfileSummary[]> {
  return (await storedDefinitions(store)).map((definition) => summaryOf(registry, definition));
}

/** The stored profiles (all, or those named, case-insensitively) as one `<Profiles>` document. */
export async function exportProfiles(
  store: Pick<ProfileStore, 'listProfiles'>,
  names: readonly string[] = [],
): Promise<{ readonly xml: string; readonly missing: readonly string[]; readonly exported: number }> {
  const definitions = await storedDefinitions(store);
  const wanted = names.map((name) => name.toLowerCase());
  const chosen = wanted.length === 0 ? definitions : definitions.filter((d) => wanted.includes(d.name.toLowerCase()));
  const found = new Set(chosen.map((definition) => definition.name.toLowerCase()));
  return {
    xml: profilesXml(chosen),
    missing: names.filter((name) => !found.has(name.toLowerCase())),
    exported: chosen.length,
  };
}
