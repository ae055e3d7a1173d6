// Opaque bearer tokens: 32 random lowercase hex digits, kept in the store only as a SHA-256 hash with their expiry and
// scope, and the caller a presented token stands for.
import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../api/caller.js';
import type {
  AccessTokenRecord,
  ClaimSetAdministration,
  ClaimSetDefinition,
  ClientApplication,
  ClientAdministration,
  ClientOwnership,
  TokenStore,
} from '../store/store.js';
import { claimSetCatalogue } from './claims/index.js';
import { grantOf } from './client-grants.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 1800;
/** The ODS's shipped `BearerTokenPerClientLimit`. */
export const DEFAULT_TOKENS_PER_CLIENT = 15;

// The ODS parses the value as a GUID: the "N" (32 hex digits) and "D" (hyphenated) spellings, in either case.
const GUID_N = /^[0-9a-f]{32}$/i;
const GUID_D = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token as issued (32 lowercase hex digits), or undefined when the value is not a GUID. */
export function normalizeAccessToken(value: string): string | undefined {
  if (GUID_N.test(value)) return value.toLowerCase();
  if (GUID_D.test(value)) return value.replaceAll('-', '').toLowerCase();
  return undefined;
}

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface TokenIssue {
  readonly clientKey: string;
  readonly lifetimeSeconds: number;
  readonly perClientLimit: number;
  /** The scope the token is narrowed to. */
  readonly educationOrganizationId?: number;
  /** Epoch milliseconds. */
  readonly now: number;
}

/** A new token, or undefined when the client already holds `perClientLimit` unexpired tokens. */
export async function issueAccessToken(
  store: Pick<TokenStore, 'saveAccessToken'>,
  issue: TokenIssue,
): Promise<string | undefined> {
  const token = randomBytes(16).toString('hex');
  const saved = await store.saveAccessToken(
    {
      tokenHash: hashAccessToken(token),
      clientKey: issue.clientKey,
      expiresAt: issue.now + issue.lifetimeSeconds * 1000,
      educationOrganizationId: issue.educationOrganizationId,
    },
    { perClientLimit: issue.perClientLimit, now: issue.now },
  );
  return saved ? token : undefined;
}

export type TokenHolderStore = Pick<TokenStore, 'findAccessToken'> &
  Pick<ClientAdministration, 'findClientApplication' | 'findClientOwnership'> &
  Pick<ClaimSetAdministration, 'findClaimSet'>;

export interface TokenHolder {
  readonly caller: Caller;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/** What a token grants: its application's grant, narrowed to the token's scope when it has one. */
function callerFor(
  token: AccessTokenRecord,
  application: ClientApplication | undefined,
  claimSet: ClaimSetDefinition | undefined,
  ownership: ClientOwnership | undefined,
): Caller {
  const grant = grantOf(application);
  const scope = token.educationOrganizationId;
  return {
    clientId: token.clientKey,
    claimSetName: grant.claimSetName,
    ...(claimSet === undefined ? {} : { claimSet }),
    educationOrganizationIds: scope === undefined ? grant.educationOrganizationIds : [scope],
    namespacePrefixes: grant.namespacePrefixes,
    // Without an application or token (clients from before applications) the client's documents have no owner.
    ownershipTokenId: ownership?.ownershipTokenId ?? 0,
    ...(ownership === undefined ? {} : { accessibleOwnershipTokenIds: ownership.accessibleOwnershipTokenIds }),
    profileNames: grant.profileNames,
  };
}

/** Who holds a normalized token: undefined when it is unknown, expired at `now` or its client inactive. */
export async function findTokenHolder(
  store: TokenHolderStore,
  token: string,
  now: number,
): Promise<TokenHolder | undefined> {
  const record = await store.findAccessToken(hashAccessToken(token), now);
  if (record === undefined) return undefined;
  const [application, ownership] = await Promise.all([
    store.findClientApplication(record.clientKey),
    store.findClientOwnership(record.clientKey),
  ]);
  const claimSet = application && (await importedClaimSetOf(store, application.claimSetName));
  return { caller: callerFor(record, application, claimSet, ownership), expiresAt: record.expiresAt };
}

/** A claim set the claims file does not ship is an imported one; one deleted since grants nothing (as an unknown name). */
async function importedClaimSetOf(
  store: Pick<ClaimSetAdministration, 'findClaimSet'>,
  name: string,
): Promise<ClaimSetDefinition | undefined> {
  return claimSetCatalogue().resolve(name) === undefined ? store.findClaimSet(name) : undefined;
}
