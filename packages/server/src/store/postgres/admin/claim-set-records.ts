// Imported claim sets on PostgreSQL, with the same semantics as SQLite's.
import type pg from 'pg';
import type { ClaimSetDefinition, ClaimSetDeletion } from '../../store.js';
import { CLAIM_SET_COLUMNS, claimSetValues, toClaimSet, type ClaimSetRow } from '../../relational/claim-set-rows.js';
import { inTransaction } from '../pool.js';

export function saveClaimSets(pool: pg.Pool, claimSets: readonly ClaimSetDefinition[]): Promise<void> {
  return inTransaction(pool, async (client) => {
    for (const claimSet of claimSets) {
      await client.query(
        `INSERT INTO claim_set (${CLAIM_SET_COLUMNS}) VALUES ($1, $2) ` +
          'ON CONFLICT (name) DO UPDATE SET resource_claims = excluded.resource_claims',
        claimSetValues(claimSet),
      );
    }
  });
}

export async function findClaimSet(pool: pg.Pool, name: string): Promise<ClaimSetDefinition | undefined> {
  const { rows } = await pool.query<ClaimSetRow>(`SELECT ${CLAIM_SET_COLUMNS} FROM claim_set WHERE name = $1`, [name]);
  return rows[0] && toClaimSet(rows[0]);
}

export async function listClaimSets(pool: pg.Pool): Promise<ClaimSetDefinition[]> {
  const { rows } = await pool.query<ClaimSetRow>(`SELECT ${CLAIM_SET_COLUMNS} FROM claim_set ORDER BY name`);
  return rows.map(toClaimSet);
}

/** The claim set's row is locked first, so an application cannot take it up while it is being deleted. */
export function deleteClaimSet(pool: pg.Pool, name: string): Promise<ClaimSetDeletion> {
  return inTransaction(pool, async (client) => {
    const found = await client.query('SELECT 1 FROM claim_set WHERE name = $1 FOR UPDATE', [name]);
    if (found.rowCount === 0) return 'unknown';
    const { rows } = await client.query<{ used: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM application WHERE claim_set_name = $1) AS used',
      [name],
    );
    if (rows[0]!.used) return 'in-use';
    await client.query('DELETE FROM claim_set WHERE name = $1', [name]);
    return 'deleted';
  });
}
