// Ownership tokens as every SQL store reads them: a client's own token (the one it was given, else its application's)
// and the further ones it may access. Parameters are positional: the client key.
import type { ClientTokenNames } from '../store.js';

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

/** Every client's token names: its own (`is_creator` 1) and the further ones it may access, by client and name. */
export const CLIENT_TOKEN_NAMES_SQL =
  'SELECT c.client_key, t.description, 1 AS is_creator FROM client c ' +
  'LEFT JOIN application a ON a.application_id = c.application_id ' +
  'JOIN ownership_token t ON t.ownership_token_id = COALESCE(c.creator_ownership_token_id, a.ownership_token_id) ' +
  'UNION ALL SELECT ct.client_key, t.description, 0 FROM client_ownership_token ct ' +
  'JOIN ownership_token t ON t.ownership_token_id = ct.ownership_token_id ORDER BY 1, 2';

export interface ClientTokenNameRow {
  readonly client_key: string;
  readonly description: string;
  readonly is_creator: number | string;
}

export const NO_TOKENS: ClientTokenNames = { creator: null, accessible: [] };

/** The rows of CLIENT_TOKEN_NAMES_SQL by client key; a client without tokens is not in the map. */
export function tokenNamesByClient(rows: readonly ClientTokenNameRow[]): Map<string, ClientTokenNames> {
  const byClient = new Map<string, { creator: string | null; accessible: string[] }>();
  for (const row of rows) {
    const names = byClient.get(row.client_key) ?? { creator: null, accessible: [] };
    if (Number(row.is_creator) === 1) names.creator = row.description;
    else names.accessible.push(row.description);
    byClient.set(row.client_key, names);
  }
  return byClient;
}
