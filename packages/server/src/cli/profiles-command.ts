// `edfi-api profiles import | list | export | delete`: the profile definitions (contract §9.1) of a store.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Option } from 'commander';
import { exportProfiles, importProfiles, listProfiles, type ProfileSummary } from '../profiles/index.js';
import { DEFAULT_STORE } from '../setup/store-location.js';
import { withStore } from './clients-command.js';

type Print = (text: string) => void;

interface StoreFlags {
  readonly store: string;
}

interface ListFlags extends StoreFlags {
  readonly json?: boolean;
}

interface ExportFlags extends StoreFlags {
  readonly output?: string;
}

function describe(summary: ProfileSummary): string[] {
  const lines = [`${summary.name}: ${summary.resources.join(', ')}`];
  for (const problem of summary.problems) lines.push(`  misconfigured (requests answer 406): ${problem}`);
  return lines;
}

async function importCommand(file: string, flags: StoreFlags, print: Print): Promise<void> {
  const xml = await readFile(file, 'utf8');
  const imported = await withStore(flags.store, (store, registry) => importProfiles(store, registry, xml));
  print(`Imported ${imported.length} profile(s):`);
  for (const summary of imported) describe(summary).forEach((line) => print(`  ${line}`));
}

async function listCommand(flags: ListFlags, print: Print): Promise<void> {
  const profiles = await withStore(flags.store, (store, registry) => listProfiles(store, registry));
  if (flags.json) print(JSON.stringify(profiles, null, 2));
  else if (profiles.length === 0) print('No profiles.');
  else profiles.flatMap(describe).forEach((line) => print(line));
}

async function exportCommand(names: string[], flags: ExportFlags, print: Print): Promise<void> {
  const { xml, missing, exported } = await withStore(flags.store, (store) => exportProfiles(store, names));
  if (missing.length > 0) throw new Error(`No profile is named ${missing.map((name) => `'${name}'`).join(', ')}.`);
  // An empty <Profiles> would not import again (the XSD asks for one profile at least).
  if (exported === 0) throw new Error('The store has no profiles to export.');
  if (flags.output === undefined) print(xml.trimEnd());
  else await writeFile(flags.output, xml);
}

async function deleteCommand(names: string[], flags: StoreFlags, print: Print): Promise<void> {
  await withStore(flags.store, async (store) => {
    for (const name of names) {
      if (!(await store.deleteProfile(name))) throw new Error(`No profile is named '${name}'.`);
      print(`Deleted profile '${name}'.`);
    }
  });
  print('A running server applies the change within 10 s; applications keep the name assigned.');
}

export function registerProfilesCommand(program: Command, print: Print): void {
  const storeOption = () => new Option('--store <spec>', 'where the data lives').default(DEFAULT_STORE);
  const profiles = program.command('profiles').description('manage profiles (data policies) in the ODS profile XML');
  profiles
    .command('import')
    .description('add the profiles of an ODS profile XML file, replacing those of the same names')
    .argument('<file>', 'a <Profiles> document (Ed-Fi-ODS-API-Profiles.xsd)')
    .addOption(storeOption())
    .action((file: string, flags: StoreFlags) => importCommand(file, flags, print));
  profiles
    .command('list')
    .description('list the profiles, their resources, and what makes any of them misconfigured')
    .option('--json', 'print JSON')
    .addOption(storeOption())
    .action((flags: ListFlags) => listCommand(flags, print));
  profiles
    .command('export')
    .description('print the profiles (all, or those named) as one ODS profile XML document')
    .argument('[names...]', 'profile names')
    .option('--output <file>', 'write the XML to this file instead')
    .addOption(storeOption())
    .action((names: string[], flags: ExportFlags) => exportCommand(names, flags, print));
  profiles
    .command('delete')
    .description('delete profiles by name')
    .argument('<names...>', 'profile names')
    .addOption(storeOption())
    .action((names: string[], flags: StoreFlags) => deleteCommand(names, flags, print));
}
