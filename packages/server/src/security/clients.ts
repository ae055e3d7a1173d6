// API clients: creation with generated or given credentials in an application, and checking a presented key and secret.
import type { ApiClient, ClaimSetAdministration, ClientAdministration, OwnershipTokenNames } from '../store/store.js';
import { applicationFor, ClientCreationError, type ApplicationOptions } from './client-applications.js';
import { describeClient, type ClientDescription } from './client-descriptions.js';
import { randomAlphanumeric } from './random-text.js';
import { hashSecret, verifySecret } from './secret-hash.js';

export type ClientStore = Pick<
  ClientAdministration,
  'createClient' | 'findClient' | 'findApplication' | 'findVendorNamespacePrefixes'
> &
  Pick<ClaimSetAdministration, 'listClaimSets'>;

export interface NewClientOptions extends ApplicationOptions {
  /** Generated (32 alphanumeric characters) when not given. */
  readonly key?: string;
  /** Generated (48 alphanumeric characters) when not given. */
  readonly secret?: string;
  /** Defaults to the key. */
  readonly name?: string;
  /** The named ownership token the client's documents are stamped with; default its application's own. */
  readonly ownershipToken?: string;
  /** Further named ownership tokens whose documents the client may access (OwnershipBased authorization). */
  readonly accessOwnershipTokens?: readonly string[];
}

export interface CreatedClient extends ClientDescription {
  /** The only time the secret is available in clear: the store keeps a salted hash. */
  readonly secret: string;
  /** Advice about a weak explicit secret; the client is created anyway. */
  readonly warnings: readonly string[];
}

/** A new client's key is already taken. */
export class DuplicateClientError extends ClientCreationError {
  override readonly name = 'DuplicateClientError';
}

const GENERATED_KEY_LENGTH = 32;
const GENERATED_SECRET_LENGTH = 48;
const MINIMUM_SECRET_LENGTH = 32;

function checkKey(key: string): void {
  if (key.trim() === '') throw new ClientCreationError('The client key must not be blank.');
  // Basic credentials are `key:secret`, so a colon in the key could never be presented that way.
  if (key.includes(':')) throw new ClientCreationError("The client key must not contain ':'.");
}

function secretWarnings(secret: string): string[] {
  const warnings: string[] = [];
  if (secret.length < MINIMUM_SECRET_LENGTH) {
    warnings.push(
      `The secret has ${secret.length} characters; use at least ${MINIMUM_SECRET_LENGTH} random characters (or omit it to have one generated).`,
    );
  }
  if (secret.includes(':')) {
    warnings.push("The secret contains ':', so it can only be sent in the request body, not in a Basic header.");
  }
  return warnings;
}

function ownershipTokensOf(options: NewClientOptions): OwnershipTokenNames | undefined {
  const { ownershipToken: creator, accessOwnershipTokens: accessible = [] } = options;
  if (creator === undefined && accessible.length === 0) return undefined;
  const names = creator === undefined ? accessible : [creator, ...accessible];
  if (names.some((name) => name.trim() === ''))
    throw new ClientCreationError('An ownership token name must not be blank.');
  return { ...(creator === undefined ? {} : { creator }), accessible: [...new Set(accessible)] };
}

/** Throws ClientCreationError for invalid options (an unknown claim set lists the valid names). */
export async function createClient(store: ClientStore, options: NewClientOptions = {}): Promise<CreatedClient> {
  const key = options.key ?? randomAlphanumeric(GENERATED_KEY_LENGTH);
  checkKey(key);
  const secret = options.secret ?? randomAlphanumeric(GENERATED_SECRET_LENGTH);
  if (secret.trim() === '') throw new ClientCreationError('The client secret must not be blank.');
  if ((await store.findClient(key)) !== undefined) {
    throw new DuplicateClientError(`A client with the key '${key}' already exists.`);
  }
  const name = options.name ?? key;
  const application = await applicationFor(store, options, name);
  await store.createClient(
    { key, name, secretHash: await hashSecret(secret), active: true, createdAt: new Date().toISOString() },
    application,
    ownershipTokensOf(options),
  );
  const warnings = options.secret === undefined ? [] : secretWarnings(secret);
  return { ...describeClient(key, name, application), secret, warnings };
}

/** The active client with this key and secret, or undefined (unknown key, wrong secret or inactive client alike). */
export async function authenticateClient(
  store: Pick<ClientAdministration, 'findClient'>,
  key: string,
  secret: string,
): Promise<ApiClient | undefined> {
  const client = await store.findClient(key);
  // Unknown keys still pay for one hash, so response times do not reveal which keys exist.
  const secretHash = client?.secretHash ?? (await unknownClientHash());
  const secretMatches = await verifySecret(secret, secretHash);
  return client !== undefined && client.active && secretMatches ? client : undefined;
}

let unknownClientHashPromise: Promise<string> | undefined;

function unknownClientHash(): Promise<string> {
  unknownClientHashPromise ??= hashSecret(randomAlphanumeric(GENERATED_SECRET_LENGTH));
  return unknownClientHashPromise;
}
