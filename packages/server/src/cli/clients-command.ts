// `edfi-api clients create | list | revoke`: administers the API clients of a store; a new client's secret is printed
// once, since the store keeps only its hash.
import {
  claimSetCatalogue,
  createClient,
  listClients,
  updateClient,
  type ClientDescription,
  type ClientSummary,
  type CreatedClient,
  type NewClientOptions,
} from '../security/index.js';
import { instanceNamed, readInstancesFile } from '../instances/index.js';
import type { ModelRegistry } from '../model/index.js';
import { seedNewStore } from '../setup/first-start.js';
import { registryForStore } from '../setup/served-extensions.js';
import { openStoreCreatingFolder } from '../setup/store-location.js';
import type { Store } from '../store/store.js';
import { textTable, type Column } from './text-table.js';

export type Print = (text: string) => void;

export interface StoreFlag {
  readonly store: string;
  /** With `instance`: the stores are those of the named instances of this file, not `store`. */
  readonly instances?: string;
  readonly instance?: readonly string[];
}

export interface CreateClientFlags extends StoreFlag {
  readonly key?: string;
  readonly secret?: string;
  readonly name?: string;
  readonly vendor?: string;
  readonly application?: string;
  readonly claimSet?: string;
  readonly edorg?: readonly number[];
  readonly namespace?: readonly string[];
  readonly profile?: readonly string[];
  readonly ownershipToken?: string;
  readonly accessOwnershipToken?: readonly string[];
  /** Accept a given secret shorter than MINIMUM_CLI_SECRET_LENGTH. */
  readonly allowWeakSecret?: boolean;
}

/** A shorter secret given on the command line is refused unless `--allow-weak-secret` says it is meant. */
export const MINIMUM_CLI_SECRET_LENGTH = 16;

/**
 * The claim set decides everything the client may do, so it is chosen explicitly (no silent broadest default), and a
 * secret short enough to guess is refused.
 */
function checkCreateFlags(flags: CreateClientFlags): void {
  if (flags.claimSet === undefined) {
    throw new Error(`--claim-set is required. Claim sets: ${claimSetCatalogue().names.join(', ')}.`);
  }
  if (flags.secret !== undefined && flags.secret.length < MINIMUM_CLI_SECRET_LENGTH && flags.allowWeakSecret !== true) {
    throw new Error(
      `The secret has ${flags.secret.length} characters; at least ${MINIMUM_CLI_SECRET_LENGTH} are required ` +
        '(omit --secret to have one generated, or pass --allow-weak-secret).',
    );
  }
}

export interface ListClientsFlags extends StoreFlag {
  readonly json?: boolean;
}

export interface UpdateClientFlags extends StoreFlag {
  readonly key: string;
  readonly claimSet?: string;
  readonly edorg?: readonly number[];
}

export interface RevokeClientFlags extends StoreFlag {
  readonly key: string;
}

/** The stores a command administers: `--store`, or those of the `--instance`s of `--instances`. */
export function storeSpecsOf(flags: StoreFlag): { name?: string; spec: string }[] {
  if (flags.instances === undefined) {
    if (flags.instance !== undefined) throw new Error('--instance names an instance of the file --instances gives.');
    return [{ spec: flags.store }];
  }
  const config = readInstancesFile(flags.instances);
  if (flags.instance === undefined) throw new Error('Name one or more instances of --instances with --instance.');
  return flags.instance.map((name) => ({ name, spec: instanceNamed(config, name).store }));
}

/** Opens the store serving the extensions it records; `use` gets that registry too, to check input against. */
export async function withStore<T>(
  spec: string,
  use: (store: Store, registry: ModelRegistry) => Promise<T>,
): Promise<T> {
  const registry = await registryForStore(spec);
  const store = await openStoreCreatingFolder(spec, registry);
  try {
    return await use(store, registry);
  } finally {
    await store.close();
  }
}

export function listed(values: readonly (string | number)[]): string {
  return values.length === 0 ? '-' : values.join(',');
}

function optionsOf(flags: CreateClientFlags): NewClientOptions {
  return {
    key: flags.key,
    secret: flags.secret,
    name: flags.name,
    vendor: flags.vendor,
    application: flags.application,
    claimSet: flags.claimSet,
    educationOrganizationIds: flags.edorg,
    namespacePrefixes: flags.namespace,
    profiles: flags.profile,
    ownershipToken: flags.ownershipToken,
    accessOwnershipTokens: flags.accessOwnershipToken,
  };
}

/** Creates the client in one store, set up first as `serve` would: a client is often the first thing a store gets. */
function createIn(spec: string, options: NewClientOptions, print: Print): Promise<CreatedClient> {
  return withStore(spec, async (store, registry) => {
    const seeding = await seedNewStore(store, registry, 'descriptors');
    if (seeding !== undefined)
      print(`New store: seeded ${seeding.descriptors} descriptors and ${seeding.schoolYears} school years.`);
    return createClient(store, options);
  });
}

/** With several instances, the client is created in each of their stores with one key and secret (its bindings). */
export async function createClientCommand(flags: CreateClientFlags, print: Print): Promise<void> {
  checkCreateFlags(flags);
  const [first, ...others] = storeSpecsOf(flags);
  const created = await createIn(first!.spec, optionsOf(flags), print);
  for (const { spec } of others) {
    await createIn(spec, { ...optionsOf(flags), key: created.key, secret: created.secret }, print);
  }
  for (const warning of created.warnings) print(`Warning: ${warning}`);
  print(`Created client '${created.name}' of application '${created.application}' (vendor '${created.vendor}').`);
  if (first!.name !== undefined)
    print(`Instances:                ${[first, ...others].map((i) => i!.name).join(', ')}`);
  print(`Key:    ${created.key}`);
  if (flags.secret === undefined) {
    print(`Secret: ${created.secret}   (generated; it is stored hashed and not shown again)`);
  }
  printGrants(created, print);
  if (flags.ownershipToken !== undefined) print(`Ownership token:          ${flags.ownershipToken}`);
  if (flags.accessOwnershipToken !== undefined)
    print(`Also accesses the tokens: ${listed(flags.accessOwnershipToken)}`);
}

function printGrants(client: ClientDescription, print: Print): void {
  print(`Claim set:                ${client.claimSet}`);
  print(`Education organizations:  ${listed(client.educationOrganizationIds)}`);
  print(`Namespace prefixes:       ${listed(client.namespacePrefixes)}`);
  if (client.profiles.length > 0) print(`Profiles:                 ${listed(client.profiles)}`);
}

export async function updateClientCommand(flags: UpdateClientFlags, print: Print): Promise<void> {
  for (const { name, spec } of storeSpecsOf(flags)) {
    const changes = { claimSet: flags.claimSet, educationOrganizationIds: flags.edorg };
    const updated = await withStore(spec, (store) => updateClient(store, flags.key, changes));
    const where = name === undefined ? '' : ` in instance '${name}'`;
    print(`Updated application '${updated.application}' of client '${updated.key}'${where}:`);
    printGrants(updated, print);
  }
  print('New tokens get the change at once; running servers apply it to live tokens within their --token-cache-ttl.');
}

const COLUMNS: readonly Column<ClientSummary>[] = [
  ['KEY', (client) => client.key],
  ['NAME', (client) => client.name],
  ['VENDOR', (client) => client.vendor ?? '-'],
  ['APPLICATION', (client) => client.application ?? '-'],
  ['CLAIM SET', (client) => client.claimSet],
  ['EDORGS', (client) => listed(client.educationOrganizationIds)],
  ['NAMESPACES', (client) => listed(client.namespacePrefixes)],
  ['PROFILES', (client) => listed(client.profiles)],
  ['OWNERSHIP TOKEN', (client) => client.ownershipToken ?? '-'],
  ['OTHER OWNERSHIP TOKENS', (client) => listed(client.accessOwnershipTokens)],
  ['ACTIVE', (client) => (client.active ? 'yes' : 'no')],
  ['TOKENS', (client) => String(client.liveTokens)],
];

export async function listClientsCommand(flags: ListClientsFlags, print: Print): Promise<void> {
  for (const { name, spec } of storeSpecsOf(flags)) {
    const clients = await withStore(spec, (store) => listClients(store));
    if (name !== undefined && !flags.json) print(`Instance '${name}':`);
    if (flags.json) print(JSON.stringify(clients, null, 2));
    else if (clients.length === 0) print('No clients.');
    else for (const line of textTable(COLUMNS, clients)) print(line);
  }
}

/** Revoking in some instances' stores unbinds the client from those instances only. */
export async function revokeClientCommand(flags: RevokeClientFlags, print: Print): Promise<void> {
  for (const { name, spec } of storeSpecsOf(flags)) {
    const deletedTokens = await withStore(spec, (store) => store.revokeClient(flags.key));
    const where = name === undefined ? '' : ` in instance '${name}'`;
    if (deletedTokens === undefined) throw new Error(`No client has the key '${flags.key}'${where}.`);
    print(`Revoked client '${flags.key}'${where}: deactivated, ${deletedTokens} access token(s) deleted.`);
  }
  print('A running server that cached its tokens refuses them within its --token-cache-ttl (default 60 s).');
}
