// The `edfi-api` command line: `serve`, `clients create | list | revoke` and `load`, every command taking `--store`.
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_BASE_PATH } from '../http/app.js';
import { DEFAULT_TOKEN_CACHE_TTL_SECONDS, SANDBOX_EDUCATION_ORGANIZATION_IDS } from '../security/index.js';
import { DEFAULT_STORE } from '../setup/store-location.js';
import { withEnvironmentVariables } from './environment-options.js';
import { jsonLogger } from './json-log.js';
import {
  createClientCommand,
  listClientsCommand,
  revokeClientCommand,
  updateClientCommand,
  type CreateClientFlags,
  type ListClientsFlags,
  type RevokeClientFlags,
  type UpdateClientFlags,
} from './clients-command.js';
import { registerExportCommand } from '../export/index.js';
import { registerClaimSetCommands } from './claim-sets-command.js';
import { registerLoadCommands } from '../load/cli.js';
import { doctorCommand, type DoctorFlags } from './doctor-command.js';
import { migrateCommand, type MigrateFlags } from './migrate-command.js';
import { serve, type ServeOptions } from './serve.js';
import { parseExtensionList } from '../setup/served-extensions.js';
import { registerExtensionsCommand } from './extensions-command.js';
import { addNetworkOptions } from './network-options.js';
import { registerProfilesCommand } from './profiles-command.js';

function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^[0-9]+$/.test(value) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`Expected a whole number from ${min} to ${max}.`);
    }
    return parsed;
  };
}

function workerCount(value: string): number {
  return value === 'auto' ? availableParallelism() : integerIn(1, 256)(value);
}

/** A repeatable option's parser: every occurrence adds its parsed value to the list. */
function repeatable<T>(parse: (value: string) => T): (value: string, previous: T[] | undefined) => T[] {
  return (value, previous) => [...(previous ?? []), parse(value)];
}

function educationOrganizationId(value: string): number {
  if (!/^[0-9]+$/.test(value)) {
    throw new InvalidArgumentError('Expected an education organization id (a whole number).');
  }
  return Number(value);
}

/** `PORT`, which hosting platforms set, is the default of --port; EDFI_PORT and --port win over it. */
function defaultPort(): number {
  const value = process.env.PORT;
  return value === undefined || value === '' ? 8080 : integerIn(0, 65535)(value);
}

function storeOption(): Option {
  return new Option('--store <spec>', 'where the data lives').default(DEFAULT_STORE);
}

function instancesOption(): Option {
  return new Option('--instances <file>', 'the ODS instances (tenants, context routes) of a JSON or YAML file');
}

function instanceOption(): Option {
  return new Option('--instance <name>', 'an instance of --instances whose store is meant (repeatable)').argParser(
    repeatable(String),
  );
}

function seedOption(): Option {
  return new Option('--seed <what>', 'what a new store is seeded with (school years always)')
    .choices(['descriptors', 'none'])
    .default('descriptors');
}

export function buildProgram(): Command {
  const program = new Command('edfi-api').description('An Ed-Fi ODS/API 7.3 compatible education data API server.');

  const serveCommand = addNetworkOptions(program.command('serve'))
    .description('serve the API; a new store is seeded and gets a sandbox client, whose credentials are printed')
    .addOption(
      new Option('--port <n>', 'TCP port (0 picks a free one)')
        .default(defaultPort(), 'PORT, else 8080')
        .argParser(integerIn(0, 65535)),
    )
    .addOption(new Option('--base-path <path>', 'where the API is mounted').default(DEFAULT_BASE_PATH))
    .addOption(storeOption())
    .addOption(instancesOption())
    .addOption(seedOption())
    .addOption(new Option('--migrate', 'upgrade an outdated store schema first (a new store is always set up)'))
    .addOption(
      new Option('--sandbox-edorg <id>', "an education organization of a new store's sandbox client (repeatable)")
        .argParser((value: string, previous: number[] | undefined) => [
          ...(previous === SANDBOX_EDUCATION_ORGANIZATION_IDS ? [] : (previous ?? [])),
          integerIn(1, Number.MAX_SAFE_INTEGER)(value),
        ])
        .default(SANDBOX_EDUCATION_ORGANIZATION_IDS),
    )
    .addOption(new Option('--tls-cert <file>', 'PEM certificate: serve HTTPS (with --tls-key)'))
    .addOption(new Option('--tls-key <file>', 'PEM private key for --tls-cert'))
    .addOption(
      new Option('--workers <n>', "worker processes sharing the store ('auto': one per CPU core)")
        .default(1)
        .argParser(workerCount),
    )
    .addOption(
      new Option('--token-cache-ttl <seconds>', 'how long a node trusts a token it found (revocation delay elsewhere)')
        .default(DEFAULT_TOKEN_CACHE_TTL_SECONDS)
        .argParser(integerIn(0, 86_400)),
    )
    .addOption(
      new Option('--admin-key <key>', 'enable the admin API ({base}/admin/clients) for this Basic user').env(
        'EDFI_ADMIN_KEY',
      ),
    )
    .addOption(
      new Option('--admin-secret <secret>', 'password of --admin-key (prefer the environment variable)').env(
        'EDFI_ADMIN_SECRET',
      ),
    )
    .addOption(
      new Option(
        '--ownership-based-authorization',
        'enforce the OwnershipBased strategy of claim sets (off by default, as in the ODS)',
      ),
    )
    .addOption(new Option('--no-docs', 'do not serve the API documentation page ({base}/docs, Swagger UI)'))
    .addOption(
      new Option(
        '--extensions <names>',
        'optional extensions to serve, comma-separated (sample, homograph); recorded in the store (default: its record)',
      ).argParser(parseExtensionList),
    )
    .addOption(
      new Option('--snapshots <mode>', 'Use-Snapshot reads (off: 404 as an ODS without a snapshot database)')
        .choices(['on', 'off'])
        .default('on'),
    )
    .action((flags: ServeOptions) =>
      serve(flags, { logger: jsonLogger(), notice: (text) => process.stderr.write(`${text}\n`) }),
    );

  const print = (text: string): void => void process.stdout.write(`${text}\n`);
  program
    .command('migrate')
    .description(
      'create or upgrade the store schema (idempotent; safe to run while other nodes start), seeding a new store',
    )
    .addOption(storeOption())
    .addOption(seedOption())
    .action((flags: MigrateFlags) => migrateCommand(flags, print));

  program
    .command('doctor')
    .description(
      'check a store without changing it: reachable, schema, model, seeded, clients and tokens, with what to do about ' +
        'each problem (exit code 1 when there is one)',
    )
    .addOption(storeOption())
    .action((flags: DoctorFlags) => doctorCommand(flags, print));

  const clients = program.command('clients').description('manage API clients');
  clients
    .command('create')
    .description('create an API client in an application; the key and secret are generated when not given')
    .option('--key <key>', 'client key')
    .option('--secret <secret>', 'client secret (at least 16 characters; 32 random ones recommended)')
    .option('--allow-weak-secret', 'accept a --secret shorter than 16 characters')
    .option('--name <name>', 'display name (default: the key)')
    .option('--claim-set <name>', "the application's claim set, e.g. 'SIS Vendor' (required)")
    .option(
      '--edorg <id>',
      'an education organization id of the application (repeatable)',
      repeatable(educationOrganizationId),
    )
    .option(
      '--namespace <prefix>',
      "a namespace prefix of the vendor, e.g. 'uri://ed-fi.org' (repeatable)",
      repeatable(String),
    )
    .option('--profile <name>', 'a profile assigned to the application (repeatable)', repeatable(String))
    .option(
      '--ownership-token <name>',
      "the ownership token the client's documents are stamped with (default: its application's own)",
    )
    .option(
      '--access-ownership-token <name>',
      'a further ownership token whose documents the client may access (repeatable)',
      repeatable(String),
    )
    .option('--vendor <name>', 'vendor, found or created by name (default: the application)')
    .option(
      '--application <name>',
      "application, found or created by name within the vendor (default: the client's name)",
    )
    .addOption(storeOption())
    .addOption(instancesOption())
    .addOption(instanceOption())
    .action((flags: CreateClientFlags) => createClientCommand(flags, print));
  clients
    .command('list')
    .description('list the API clients (never their secrets) with their applications and live token counts')
    .option('--json', 'print JSON instead of a table')
    .addOption(storeOption())
    .addOption(instancesOption())
    .addOption(instanceOption())
    .action((flags: ListClientsFlags) => listClientsCommand(flags, print));
  clients
    .command('revoke')
    .description('deactivate an API client and delete its access tokens')
    .requiredOption('--key <key>', 'client key')
    .addOption(storeOption())
    .addOption(instancesOption())
    .addOption(instanceOption())
    .action((flags: RevokeClientFlags) => revokeClientCommand(flags, print));

  clients
    .command('update')
    .description(
      "change a client's application (and so its other clients): claim set, education organizations; new tokens " +
        'see the change at once, live ones within the token cache TTL',
    )
    .requiredOption('--key <key>', 'client key')
    .option('--claim-set <name>', 'a shipped or imported claim set')
    .option(
      '--edorg <id>',
      'an education organization id (repeatable; replaces them all)',
      repeatable(educationOrganizationId),
    )
    .addOption(storeOption())
    .addOption(instancesOption())
    .addOption(instanceOption())
    .action((flags: UpdateClientFlags) => updateClientCommand(flags, print));
  registerClaimSetCommands(
    program,
    { store: storeOption, instances: instancesOption, instance: instanceOption },
    print,
  );

  withEnvironmentVariables(serveCommand);
  registerExtensionsCommand(program, print);

  registerLoadCommands(program);
  registerExportCommand(program);
  registerProfilesCommand(program, print);
  return program;
}
