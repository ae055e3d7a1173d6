// Named ownership tokens on PostgreSQL, with the same semantics as SQLite's.
import type pg from 'pg';
import type { ClientOwnership, OwnershipTokenNames } from '../../store.js';
import {
  ACCESSIBLE_TOKENS_SQL,
  applicationTokenName,
  CLIENT_OWNERSHIP_SQL,
  clientOwnershipOf,
} from '../../relational/ownership-token-sql.js';

/** A token created by a concurrent client creation makes the insert wait, then find its row. */
async function tokenIdOf(client: pg.ClientBase, name: string): Promise<number> {
  await client.query('INSERT INTO ownership_token (description) VALUES ($1) ON CONFLICT (description) DO NOTHING', [
    name,
  ]);
  const { rows } = await client.query<{ ownership_token_id: string }>(
    'SELECT ownership_token_id FROM ownership_token WHERE description = $1',
    [name],
  );
  return Number(rows[0]!.ownership_token_id);
}

/** Inside the caller's transaction. */
export async function giveApplicationToken(client: pg.ClientBase, applicationId: number): Promise<void> {
  const tokenId = await tokenIdOf(client, applicationTokenName(applicationId));
  await client.query('UPDATE application SET ownership_token_id = $1 WHERE application_id = $2', [
    tokenId,
    applicationId,
  ]);
}

/** Inside the caller's transaction, after the client's row. */
export async function giveClientTokens(
  client: pg.ClientBase,
  clientKey: string,
  names: OwnershipTokenNames,
): Promise<void> {
  if (names.creator !== undefined) {
    const tokenId = await tokenIdOf(client, names.creator);
    await client.query('UPDATE client SET creator_ownership_token_id = $1 WHERE client_key = $2', [tokenId, clientKey]);
  }
  for (const name of names.accessible ?? []) {
    await client.query(
      'INSERT INTO client_ownership_token (client_key, ownership_token_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [clientKey, await tokenIdOf(client, name)],
    );
  }
}

export async function findClientOwnership(pool: pg.Pool, clientKey: string): Promise<ClientOwnership | undefined> {
  const [creator, accessible] = await Promise.all([
    pool.query<{ creator: string | null }>(`${CLIENT_OWNERSHIP_SQL}$1`, [clientKey]),
    pool.query<{ ownership_token_id: string }>(`${ACCESSIBLE_TOKENS_SQL}$1`, [clientKey]),
  ]);
  return clientOwnershipOf(
    creator.rows[0]?.creator,
    accessible.rows.map((row) => row.ownership_token_id),
  );
}
