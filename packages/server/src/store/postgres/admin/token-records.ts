// Access tokens on PostgreSQL: saved within the per-client limit, found while unexpired for active clients, purged
// once expired.
import type pg from 'pg';
import type { AccessTokenRecord, SaveAccessTokenOptions } from '../../store.js';
import { TOKEN_COLUMNS, toToken, type TokenRow } from '../../relational/admin-rows.js';
import { inTransaction } from '../pool.js';

/**
 * Expired tokens go whenever a token is issued, so counting a client's rows after the purge counts its live tokens.
 * The client's row is locked first, so two tokens issued at once for one client cannot both pass the limit.
 */
export async function saveAccessToken(
  pool: pg.Pool,
  token: AccessTokenRecord,
  options: SaveAccessTokenOptions = {},
): Promise<boolean> {
  const limit = options.perClientLimit ?? Infinity;
  const now = options.now ?? Date.now();
  return inTransaction(pool, async (client) => {
    await client.query('SELECT 1 FROM client WHERE client_key = $1 FOR UPDATE', [token.clientKey]);
    await client.query('DELETE FROM access_token WHERE expires_at <= $1', [now]);
    if (Number.isFinite(limit)) {
      const { rows } = await client.query<{ tokens: number }>(
        'SELECT count(*) AS tokens FROM access_token WHERE client_key = $1',
        [token.clientKey],
      );
      if (rows[0]!.tokens >= limit) return false;
    }
    await client.query(
      'INSERT INTO access_token (token_hash, client_key, expires_at, education_organization_id) VALUES ($1, $2, $3, $4)',
      [token.tokenHash, token.clientKey, token.expiresAt, token.educationOrganizationId ?? null],
    );
    return true;
  });
}

export async function findAccessToken(
  pool: pg.Pool,
  tokenHash: string,
  now: number,
): Promise<AccessTokenRecord | undefined> {
  const { rows } = await pool.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM access_token t ` +
      'JOIN client c ON c.client_key = t.client_key WHERE t.token_hash = $1 AND t.expires_at > $2 AND c.active',
    [tokenHash, now],
  );
  return rows[0] && toToken(rows[0]);
}

export async function liveTokenCounts(pool: pg.Pool, now: number): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ client_key: string; tokens: number }>(
    'SELECT client_key, count(*) AS tokens FROM access_token WHERE expires_at > $1 GROUP BY client_key',
    [now],
  );
  return new Map(rows.map((row) => [row.client_key, row.tokens]));
}

/** Runs inside the caller's transaction; returns how many tokens went. */
export async function deleteClientTokens(client: pg.ClientBase, clientKey: string): Promise<number> {
  return (await client.query('DELETE FROM access_token WHERE client_key = $1', [clientKey])).rowCount ?? 0;
}
