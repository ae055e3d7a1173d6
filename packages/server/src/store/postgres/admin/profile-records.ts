// Profile definitions (contract §9.1) in the PostgreSQL store.
import type pg from 'pg';
import type { StoredProfile } from '../../store.js';
import { inTransaction } from '../pool.js';

export async function saveProfiles(pool: pg.Pool, profiles: readonly StoredProfile[]): Promise<void> {
  await inTransaction(pool, async (connection) => {
    for (const { name, definition } of profiles) {
      await connection.query(
        'INSERT INTO profile (name_key, name, definition) VALUES ($1, $2, $3) ' +
          'ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, definition = excluded.definition',
        [name.toLowerCase(), name, definition],
      );
    }
  });
}

export async function listProfiles(pool: pg.Pool): Promise<StoredProfile[]> {
  const { rows } = await pool.query<StoredProfile>('SELECT name, definition FROM profile ORDER BY name_key');
  return rows;
}

export async function deleteProfile(pool: pg.Pool, name: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM profile WHERE name_key = $1', [name.toLowerCase()]);
  return (rowCount ?? 0) > 0;
}
