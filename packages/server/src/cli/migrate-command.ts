// `edfi-api migrate --store …`: brings the store's schema up to this release and model, and seeds a new store.
import { registryForStore } from '../setup/served-extensions.js';
import type { SeedMode } from '../setup/first-start.js';
import { migrateStore } from '../setup/migration.js';
import { redactedSpec } from '../store/index.js';

export interface MigrateFlags {
  readonly store: string;
  readonly seed: SeedMode;
}

const OUTCOME_TEXT = {
  created: 'created the schema',
  upgraded: 'upgraded the schema',
  current: 'the schema is already current',
} as const;

export async function migrateCommand(flags: MigrateFlags, print: (text: string) => void): Promise<void> {
  // The store keeps serving the extensions it records.
  const registry = await registryForStore(flags.store);
  const { outcome, seeding } = await migrateStore(flags.store, registry, flags.seed);
  print(`${redactedSpec(flags.store)}: ${OUTCOME_TEXT[outcome]}.`);
  if (seeding !== undefined)
    print(`Seeded ${seeding.descriptors} descriptors and ${seeding.schoolYears} school years.`);
}
