// `edfi-api claim-sets import | list | export | delete`: the claim sets an implementer defines beside the shipped ones,
// kept in the store so that every node serving it sees them.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command, Option } from 'commander';
import {
  claimSetsJson,
  claimSetsXml,
  deleteImportedClaimSet,
  exportClaimSets,
  importClaimSets,
  listAllClaimSets,
  readClaimSetFile,
  type ClaimSetSummary,
} from '../security/index.js';
import { storeSpecsOf, withStore, type Print, type StoreFlag } from './clients-command.js';
import type { Store } from '../store/store.js';
import { textTable, type Column } from './text-table.js';

interface ListFlags extends StoreFlag {
  readonly json?: boolean;
}

interface ExportFlags extends StoreFlag {
  readonly format: 'json' | 'xml';
  readonly output?: string;
}

/** Each target store in turn, its instance named when there are several. */
async function eachStore(flags: StoreFlag, print: Print, use: (store: Store) => Promise<void>): Promise<void> {
  for (const { name, spec } of storeSpecsOf(flags)) {
    if (name !== undefined) print(`Instance '${name}':`);
    await withStore(spec, use);
  }
}

export async function importClaimSetsCommand(file: string, flags: StoreFlag, print: Print): Promise<void> {
  const drafts = readClaimSetFile(readFileSync(file, 'utf8'));
  await eachStore(flags, print, async (store) => {
    for (const claimSet of await importClaimSets(store, drafts)) {
      const claims = Object.keys(claimSet.resourceClaims).length;
      print(`Imported claim set '${claimSet.name}' (${claims} resource claim${claims === 1 ? '' : 's'}).`);
    }
  });
  print('Running servers use a changed claim set for cached tokens within their --token-cache-ttl (default 60 s).');
}

const COLUMNS: readonly Column<ClaimSetSummary>[] = [
  ['NAME', (claimSet) => claimSet.name],
  ['SOURCE', (claimSet) => (claimSet.imported ? 'imported' : 'shipped')],
  ['RESOURCE CLAIMS', (claimSet) => String(claimSet.resourceClaims)],
];

export async function listClaimSetsCommand(flags: ListFlags, print: Print): Promise<void> {
  await eachStore(flags, print, async (store) => {
    const claimSets = await listAllClaimSets(store);
    if (flags.json) print(JSON.stringify(claimSets, null, 2));
    else for (const line of textTable(COLUMNS, claimSets)) print(line);
  });
}

export async function exportClaimSetsCommand(names: string[], flags: ExportFlags, print: Print): Promise<void> {
  const [first] = storeSpecsOf(flags);
  const drafts = await withStore(first!.spec, (store) => exportClaimSets(store, names));
  const text = flags.format === 'xml' ? claimSetsXml(drafts) : claimSetsJson(drafts);
  if (flags.output === undefined) print(text.trimEnd());
  else {
    writeFileSync(flags.output, text);
    print(`Exported ${drafts.length} claim set(s) to ${flags.output}.`);
  }
}

export async function deleteClaimSetCommand(name: string, flags: StoreFlag, print: Print): Promise<void> {
  await eachStore(flags, print, async (store) => {
    print(`Deleted claim set '${await deleteImportedClaimSet(store, name)}'.`);
  });
}

export interface StoreOptions {
  readonly store: () => Option;
  readonly instances: () => Option;
  readonly instance: () => Option;
}

function withStoreOptions(command: Command, options: StoreOptions): Command {
  return command.addOption(options.store()).addOption(options.instances()).addOption(options.instance());
}

export function registerClaimSetCommands(program: Command, options: StoreOptions, print: Print): void {
  const claimSets = program.command('claim-sets').description('manage the claim sets clients may be given');
  withStoreOptions(
    claimSets
      .command('import <file>')
      .description(
        'import claim sets from ODS security-metadata XML or our JSON (all or none), replacing imported ones of ' +
          'the same names',
      ),
    options,
  ).action((file: string, flags: StoreFlag) => importClaimSetsCommand(file, flags, print));
  withStoreOptions(
    claimSets
      .command('list')
      .description('list the shipped and imported claim sets')
      .option('--json', 'print JSON instead of a table'),
    options,
  ).action((flags: ListFlags) => listClaimSetsCommand(flags, print));
  withStoreOptions(
    claimSets
      .command('export [names...]')
      .description(
        'write claim sets (the named ones, shipped ones too; default every imported one) in an import format',
      )
      .option('--format <format>', 'json or xml (ODS security metadata)', 'json')
      .option('--output <file>', 'write to this file instead of printing'),
    options,
  ).action((names: string[], flags: ExportFlags) => exportClaimSetsCommand(names, flags, print));
  withStoreOptions(
    claimSets.command('delete <name>').description('delete an imported claim set that no application holds'),
    options,
  ).action((name: string, flags: StoreFlag) => deleteClaimSetCommand(name, flags, print));
}
