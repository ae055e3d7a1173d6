// Where the nodes of one database find each other's snapshot sessions: per session (an API client), the generation of
// its snapshot (a new one each time the session is renewed) and the name of a transaction snapshot exported by a node
// that holds it (`pg_export_snapshot()`), which another node imports with `SET TRANSACTION SNAPSHOT` while that
// transaction is open. Kept as rows of the `meta` table (`snapshot:<session>`: generation, exported name).
import type pg from 'pg';
import { META_TABLE } from './schema.js';

export interface SharedSnapshot {
  readonly generation: number;
  /** The exported snapshot's name; importable while the node that exported it keeps the session open. */
  readonly exported: string;
}

const KEY_PREFIX = 'snapshot:';

export class SnapshotDirectory {
  constructor(private readonly pool: pg.Pool) {}

  async current(session: string): Promise<SharedSnapshot | undefined> {
    const { rows } = await this.pool.query<{ generation: number; exported: string }>(
      `SELECT value AS generation, text_value AS exported FROM ${META_TABLE} WHERE key = $1`,
      [`${KEY_PREFIX}${session}`],
    );
    return rows[0];
  }

  /** Records a node's export of the session's snapshot; an export of an older generation than the row's is ignored. */
  async publish(session: string, snapshot: SharedSnapshot): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${META_TABLE} (key, value, text_value) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE ` +
        `SET value = excluded.value, text_value = excluded.text_value WHERE ${META_TABLE}.value <= excluded.value`,
      [`${KEY_PREFIX}${session}`, snapshot.generation, snapshot.exported],
    );
  }
}
