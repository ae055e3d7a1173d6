// The `edfi-api` command line: `serve` and `clients create`, every command taking `--store`.
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_BASE_PATH } from '../http/app.js';
import { jsonLogger } from './json-log.js';
import { createClientCommand, type CreateClientCommandOptions } from './clients-command.js';
import { registerLoadCommands } from '../load/cli.js';
import { serve, type ServeOptions } from './serve.js';
import { DEFAULT_STORE } from './store-location.js';

function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^[0-9]+$/.test(value) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`Expected a whole number from ${min} to ${max}.`);
    }
    return parsed;
  };
}

function storeOption(): Option {
  return new Option('--store <spec>', 'where the data lives').default(DEFAULT_STORE);
}

export function buildProgram(): Command {
  const program = new Command('edfi-api').description('An Ed-Fi ODS/API 7.3 compatible education data API server.');

  program
    .command('serve')
    .description('serve the API; a new store is seeded and gets a sandbox client, whose credentials are printed')
    .addOption(
      new Option('--port <n>', 'TCP port (0 picks a free one)')
        .env('PORT')
        .default(8080)
        .argParser(integerIn(0, 65535)),
    )
    .addOption(new Option('--base-path <path>', 'where the API is mounted').default(DEFAULT_BASE_PATH))
    .addOption(storeOption())
    .addOption(
      new Option('--seed <what>', 'what a new store is seeded with (school years always)')
        .choices(['descriptors', 'none'])
        .default('descriptors'),
    )
    .addOption(new Option('--tls-cert <file>', 'PEM certificate: serve HTTPS (with --tls-key)'))
    .addOption(new Option('--tls-key <file>', 'PEM private key for --tls-cert'))
    .addOption(
      new Option('--workers <n>', 'worker processes sharing the store').default(1).argParser(integerIn(1, 256)),
    )
    .action((flags: ServeOptions) =>
      serve(flags, { logger: jsonLogger(), notice: (text) => process.stderr.write(`${text}\n`) }),
    );

  program
    .command('clients')
    .description('manage API clients')
    .command('create')
    .description('create an API client; the key and secret are generated when not given')
    .option('--key <key>', 'client key')
    .option('--secret <secret>', 'client secret (at least 32 characters recommended)')
    .option('--name <name>', 'display name')
    .addOption(storeOption())
    .action((flags: CreateClientCommandOptions) =>
      createClientCommand(flags, (text) => process.stdout.write(`${text}\n`)),
    );

  registerLoadCommands(program);
  return program;
}
