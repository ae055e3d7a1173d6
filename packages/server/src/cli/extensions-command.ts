// `edfi-api extensions list|add --store …`: which optional extensions a store serves, and serving one more (the
// migration creates its tables and records it in the store, so every node serves it from then on).
import { Option, type Command } from 'commander';
import { loadModelData, optionalExtensions } from '../model/index.js';
import { migrateStore } from '../setup/migration.js';
import { registryForStore } from '../setup/served-extensions.js';
import { createSqliteFolder, DEFAULT_STORE } from '../setup/store-location.js';
import { recordedRegistry, redactedSpec } from '../store/index.js';

interface ExtensionsFlags {
  readonly store: string;
}

async function listExtensions(flags: ExtensionsFlags, print: (text: string) => void): Promise<void> {
  createSqliteFolder(flags.store);
  const served = (await recordedRegistry(flags.store)).extensions;
  for (const name of optionalExtensions(loadModelData())) print(`${name}\t${served.includes(name) ? 'served' : 'off'}`);
}

async function addExtension(name: string, flags: ExtensionsFlags, print: (text: string) => void): Promise<void> {
  createSqliteFolder(flags.store);
  const served = (await recordedRegistry(flags.store)).extensions;
  const registry = await registryForStore(flags.store, [...served, name.toLowerCase()]);
  const { outcome } = await migrateStore(flags.store, registry, 'descriptors');
  print(`${redactedSpec(flags.store)}: serves ${registry.extensions.join(', ')} (${outcome} schema).`);
}

export function registerExtensionsCommand(program: Command, print: (text: string) => void): void {
  const extensions = program
    .command('extensions')
    .description("the optional extensions a store serves (Ed-Fi's Sample, Homograph)");
  const storeOption = () => new Option('--store <spec>', 'where the data lives').default(DEFAULT_STORE);
  extensions
    .command('list')
    .description('list the optional extensions of the model and whether the store serves each')
    .addOption(storeOption())
    .action((flags: ExtensionsFlags) => listExtensions(flags, print));
  extensions
    .command('add <name>')
    .description('serve one more extension from this store on (migrates the schema; every node then serves it)')
    .addOption(storeOption())
    .action((name: string, flags: ExtensionsFlags) => addExtension(name, flags, print));
}
