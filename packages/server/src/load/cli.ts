// The `load` and `sample-data` commands of the `edfi-api` command line (commander).
import { Command, InvalidArgumentError, Option } from 'commander';
import { getModelRegistry, loadModelData, optionalExtensions, type ModelRegistry } from '../model/index.js';
import { DEFAULT_STORE } from '../setup/store-location.js';
import { registryForStore } from '../setup/served-extensions.js';
import { loadFiles, DEFAULT_PARALLEL_REQUESTS, type LoadSummary } from './load-files.js';
import type { ProgressMode } from './progress/progress-display.js';
import { summaryText } from './report/summary-text.js';
import { openDirectStoreTarget } from './target/direct-store.js';
import { createHttpTarget } from './target/http-target.js';
import type { LoadTarget } from './target/load-target.js';

interface LoadFlags {
  url?: string;
  key?: string;
  secret?: string;
  direct?: boolean;
  store: string;
  parallel: number;
  failed: string;
  checkpoint: string;
  resume?: boolean;
  progress: ProgressMode;
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!/^[0-9]+$/.test(value) || parsed < 1) throw new InvalidArgumentError('Expected a whole number of at least 1.');
  return parsed;
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Ctrl-C stops gracefully (requests in flight finish, the checkpoint is saved); a second one quits at once. */
function interruptible(): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onInterrupt = (): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping after the requests in flight (Ctrl-C again to quit now)...\n');
    controller.abort(new Error('Interrupted'));
  };
  process.on('SIGINT', onInterrupt);
  return { signal: controller.signal, release: () => process.off('SIGINT', onInterrupt) };
}

interface OpenedTarget {
  readonly target: LoadTarget;
  /** The model the inputs are read with: the store's for a direct load. */
  readonly registry: ModelRegistry;
}

/**
 * Over HTTP, the inputs are read with every extension the model holds and the API judges what it serves (an
 * extension's resources it does not serve fail with its 404).
 */
async function openTarget(flags: LoadFlags): Promise<OpenedTarget> {
  if (flags.direct) {
    const registry = await registryForStore(flags.store);
    const { target, firstStart } = await openDirectStoreTarget(flags.store, registry);
    if (firstStart !== undefined) {
      print(`A new store was set up (${firstStart.descriptors} descriptors, ${firstStart.schoolYears} school years).`);
      print('Sandbox client for `edfi-api serve` (the secret is stored hashed and will not be shown again):');
      print(`  Key:    ${firstStart.sandbox.key}`);
      print(`  Secret: ${firstStart.sandbox.secret}`);
    }
    return { target, registry };
  }
  if (flags.url === undefined || flags.key === undefined || flags.secret === undefined) {
    throw new Error('load needs --url, --key and --secret (or --direct with --store)');
  }
  return {
    target: createHttpTarget({ url: flags.url, key: flags.key, secret: flags.secret, parallel: flags.parallel }),
    registry: getModelRegistry(optionalExtensions(loadModelData())),
  };
}

async function runLoad(paths: readonly string[], flags: LoadFlags): Promise<LoadSummary> {
  const { target, registry } = await openTarget(flags);
  const { signal, release } = interruptible();
  try {
    const summary = await loadFiles({
      inputs: paths,
      target,
      registry,
      parallel: flags.parallel,
      failedFile: flags.failed,
      checkpointFile: flags.checkpoint,
      resume: flags.resume ?? false,
      signal,
      progress: flags.progress,
    });
    print(summaryText(summary, flags.failed));
    return summary;
  } finally {
    release();
    await target.close();
  }
}

function commonOptions(command: Command, failedDefault: string): Command {
  return command
    .addOption(
      new Option('--parallel <n>', 'requests in flight at once')
        .default(DEFAULT_PARALLEL_REQUESTS)
        .argParser(positiveInteger),
    )
    .addOption(new Option('--failed <file>', 'where failed records go (JSON lines)').default(failedDefault))
    .addOption(
      new Option('--checkpoint <file>', 'progress kept for --resume (removed when the load completes)').default(
        'edfi-load.checkpoint.json',
      ),
    )
    .option('--resume', 'continue an interrupted load of the same files into the same target')
    .addOption(
      new Option('--progress <mode>', 'progress display').choices(['auto', 'bar', 'lines', 'none']).default('auto'),
    );
}

export function registerLoadCommands(program: Command): void {
  commonOptions(
    program
      .command('load')
      .description(
        'load Ed-Fi interchange XML and JSON lines ({endpoint}.jsonl or {namespace}.{endpoint}.jsonl) files, ' +
          'in dependency order, into an Ed-Fi API, or with --direct into a local store',
      )
      .argument('<paths...>', 'files, or folders searched for .xml, .jsonl and .ndjson files')
      .option('--url <base>', 'API base URL, e.g. http://localhost:8080/v7.3/api')
      .addOption(new Option('--key <key>', 'client key').env('EDFI_API_KEY'))
      .addOption(new Option('--secret <secret>', 'client secret').env('EDFI_API_SECRET'))
      .option('--direct', 'write into a local store in-process (same validation as the API, no HTTP)')
      .addOption(new Option('--store <spec>', 'the store for --direct').default(DEFAULT_STORE)),
    'edfi-load-failed.jsonl',
  ).action(async (paths: string[], flags: LoadFlags) => {
    const summary = await runLoad(paths, flags);
    const incomplete = summary.unreadableFiles.length > 0 || Object.keys(summary.unknownElements).length > 0;
    if (summary.failed > 0 || incomplete || summary.aborted) process.exitCode = 1;
  });

  commonOptions(
    program
      .command('sample-data')
      .description(
        'turn a folder of Ed-Fi sample interchange files (e.g. the Grand Bend district) into a ready sandbox store: ' +
          'the same as `load <folder> --direct`',
      )
      .argument('<folder>', 'the folder of sample interchange XML files')
      .addOption(new Option('--store <spec>', 'the store to fill (set up first when new)').default(DEFAULT_STORE)),
    'sample-data-failed.jsonl',
  ).action(async (folder: string, flags: LoadFlags) => {
    const summary = await runLoad([folder], { ...flags, direct: true });
    if (summary.aborted) process.exitCode = 1;
  });
}
