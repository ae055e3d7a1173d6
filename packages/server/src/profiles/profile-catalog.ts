// The profiles an app applies, read from the store and compiled against the model; read again after a short time so
// that an import or delete by another process takes effect without a restart, at once after this process's own.
import type { ModelRegistry } from '../model/index.js';
import type { ProfileStore } from '../store/store.js';
import { compileProfile, type CompiledProfile } from './compiled-profile.js';
import { parseProfilesXml } from './profile-xml.js';

export const PROFILE_CACHE_TTL_MS = 10_000;

export class ProfileCatalog {
  #loaded: Promise<ReadonlyMap<string, CompiledProfile>> | undefined;
  #loadedAt = 0;

  constructor(
    private readonly store: Pick<ProfileStore, 'listProfiles'>,
    private readonly registry: ModelRegistry,
    private readonly ttlMs = PROFILE_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The profile of that name (case-insensitive), or undefined. */
  async find(name: string): Promise<CompiledProfile | undefined> {
    return (await this.#profiles()).get(name.toLowerCase());
  }

  async all(): Promise<readonly CompiledProfile[]> {
    return [...(await this.#profiles()).values()];
  }

  /** Forgets what was read, after this process changed the stored profiles. */
  invalidate(): void {
    this.#loaded = undefined;
  }

  #profiles(): Promise<ReadonlyMap<string, CompiledProfile>> {
    if (this.#loaded === undefined || this.now() - this.#loadedAt > this.ttlMs) {
      this.#loadedAt = this.now();
      const loading = this.#load();
      // A failed read is not kept: the next request asks the store again.
      loading.catch(() => {
        if (this.#loaded === loading) this.#loaded = undefined;
      });
      this.#loaded = loading;
    }
    return this.#loaded;
  }

  async #load(): Promise<ReadonlyMap<string, CompiledProfile>> {
    const profiles = new Map<string, CompiledProfile>();
    for (const stored of await this.store.listProfiles()) {
      for (const definition of parseProfilesXml(stored.definition))
        profiles.set(definition.name.toLowerCase(), compileProfile(this.registry, definition));
    }
    return profiles;
  }
}
