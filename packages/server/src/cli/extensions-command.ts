// `edfi-api extensions list|add --store …`: which optional extensions a store serves, and serving one more, shipped or
// from its folder (the migration creates its tables and records it in the store, so every node serves it from then on).
import { Option, type Command } from 'commander';
import { knownExtensions } from '../model/index.js';
import { addExtensions } from '../setup/served-extensions.js';
import { createSqliteFolder, DEFAULT_STORE } from '../setup/store-location.js';
import { recordedRegistry, redactedSpec } from '../store/index.js';

interface ExtensionsFlags {
  readonly store: string;
}

async function listExtensions(flags: ExtensionsFlags, print: (text: string) => void): Promise<void> {
  createSqliteFolder(flags.store);
  const served = (await recordedRegistry(flags.store)).extensions;
  for (const name of knownExtensions()) print(`${name}\t${served.includes(name) ? 'served' : 'off'}`);
}

async function add(namesOrFolders: string[], flags: ExtensionsFlags, print: (text: string) => void): Promise<void> {
  const { registry, outcome } = await addExtensions(flags.store, namesOrFolders);
  print(`${redactedSpec(flags.store)}: serves ${registry.extensions.join(', ')} (${outcome} schema).`);
}

export function registerExtensionsCommand(program: Command, print: (text: string) => void): void {
  const extensions = program
    .command('extensions')
    .description("the optional extensions a store serves (Ed-Fi's Sample, Homograph, or one of yours from its folder)");
  const storeOption = () => new Option('--store <spec>', 'where the data lives').default(DEFAULT_STORE);
  extensions
    .command('list')
    .description('list the optional extensions of the model and whether the store serves each')
    .addOption(storeOption())
    .action((flags: ExtensionsFlags) => listExtensions(flags, print));
  extensions
    .command('add <names-or-folders...>')
    .description(
      'serve more extensions from this store on: shipped ones by name, or ones imported from their folders (MetaEd ' +
        'ApiSchema, ODS DDL, optionally XSDs, ODS generator files, claims.json); migrates the schema and records the ' +
        'extensions in the store, so every node then serves them. Adding a folder again replaces its recorded part',
    )
    .addOption(storeOption())
    .action((namesOrFolders: string[], flags: ExtensionsFlags) => add(namesOrFolders, flags, print));
}
