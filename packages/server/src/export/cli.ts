// The `export` command of the `edfi-api` command line (commander).
import { Command, Option } from 'commander';
import { DEFAULT_STORE } from '../setup/store-location.js';
import { createStore, recordedRegistry } from '../store/index.js';
import { exportStore } from './export-store.js';
import { exportTotalLine, resourceFileLine } from './summary-text.js';

interface ExportFlags {
  store: string;
  resources?: string[];
  force?: boolean;
}

/** Where the command's report lines go; standard output unless a caller (a test) collects them. */
export type PrintLine = (text: string) => void;

function printToStdout(text: string): void {
  process.stdout.write(`${text}\n`);
}

function nameList(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

async function runExport(folder: string, flags: ExportFlags, print: PrintLine): Promise<void> {
  const registry = await recordedRegistry(flags.store);
  // Opened without migrate: exporting never creates or upgrades a schema.
  const store = createStore(flags.store, registry);
  try {
    await store.open();
    const summary = await exportStore({
      store,
      registry,
      folder,
      ...(flags.resources === undefined ? {} : { resources: flags.resources }),
      force: flags.force ?? false,
      onResourceFile: (file) => print(resourceFileLine(file)),
    });
    print(exportTotalLine(summary, flags.store, folder));
  } finally {
    await store.close();
  }
}

export function registerExportCommand(program: Command, print: PrintLine = printToStdout): void {
  program
    .command('export')
    .description(
      'write every resource of a store (descriptors and school years included) as JSON lines files ' +
        '({namespace}.{endpoint}.jsonl) that `load` reads back; all of them are read through one snapshot, so the ' +
        'export is consistent even while a server keeps writing to the store',
    )
    .argument('<folder>', 'where the files go (created when missing)')
    .addOption(new Option('--store <spec>', 'the store to export').default(DEFAULT_STORE))
    .addOption(
      new Option(
        '--resources <list>',
        'only these endpoints, comma-separated (e.g. students,tpdm.candidates)',
      ).argParser(nameList),
    )
    .option('--force', 'replace the .jsonl files already in the folder instead of refusing')
    .action((folder: string, flags: ExportFlags) => runExport(folder, flags, print));
}
