// The caller an access token establishes, carried in the framework Token's claims (written by the bearer verifier) and
// read back by `callerOf` on bearer-authenticated routes.
import type { RequestContext } from '@edfi-api/framework';
import type { Caller } from '../api/caller.js';

/** The Caller under token_info's snake_case names, as the bearer verifier's Token claims. */
export type AccessTokenClaims = {
  readonly client_id: string;
  readonly claim_set: string;
  readonly education_organization_ids: readonly number[];
  readonly namespace_prefixes: readonly string[];
  readonly ownership_token_id: number;
  readonly assigned_profiles: readonly string[];
};

export function claimsOf(caller: Caller): AccessTokenClaims {
  return {
    client_id: caller.clientId,
    claim_set: caller.claimSetName,
    education_organization_ids: caller.educationOrganizationIds,
    namespace_prefixes: caller.namespacePrefixes,
    ownership_token_id: caller.ownershipTokenId,
    assigned_profiles: caller.profileNames,
  };
}

type Claims = Readonly<Record<string, unknown>>;

function claim<T>(claims: Claims, name: keyof AccessTokenClaims, is: (value: unknown) => value is T): T {
  const value = claims[name];
  if (!is(value)) throw new Error(`The access token carries no valid '${name}' claim`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number';
const isStrings = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every(isString);
const isNumbers = (value: unknown): value is readonly number[] => Array.isArray(value) && value.every(isNumber);

/** The caller of a request on a bearer-authenticated route; throws on routes not authenticated by our tokens. */
export function callerOf(ctx: Pick<RequestContext<unknown>, 'auth'>): Caller {
  const claims = ctx.auth.token?.claims;
  if (claims === undefined) throw new Error('callerOf() needs a route authenticated by an access token');
  return {
    clientId: claim(claims, 'client_id', isString),
    claimSetName: claim(claims, 'claim_set', isString),
    educationOrganizationIds: claim(claims, 'education_organization_ids', isNumbers),
    namespacePrefixes: claim(claims, 'namespace_prefixes', isStrings),
    ownershipTokenId: claim(claims, 'ownership_token_id', isNumber),
    profileNames: claim(claims, 'assigned_profiles', isStrings),
  };
}
