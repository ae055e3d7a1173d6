// Ownership tokens as every SQL store reads them: a client's own token (the one it was given, else its application's)
// and the further ones it may access. Parameters are positional: the client key.

export const CLIENT_OWNERSHIP_SQL =
  'SELECT COALESCE(c.creator_ownership_token_id, a.ownership_token_id) AS creator FROM client c ' +
  'LEFT JOIN application a ON a.application_id = c.application_id WHERE c.client_key = ';

export const ACCESSIBLE_TOKENS_SQL = 'SELECT ownership_token_id FROM client_ownership_token WHERE client_key = ';

/** An application's own token is named after its id, which no token name given to clients may take. */
export function applicationTokenName(applicationId: number): string {
  return `application ${applicationId}`;
}

export function clientOwnershipOf(
  creator: number | string | null | undefined,
  accessible: readonly (number | string)[],
) {
  if (creator === null || creator === undefined) return undefined;
  const own = Number(creator);
  const others = accessible.map(Number).filter((id) => id !== own);
  return { ownershipTokenId: own, accessibleOwnershipTokenIds: [own, ...[...new Set(others)].sort((a, b) => a - b)] };
}
