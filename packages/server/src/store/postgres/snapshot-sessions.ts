// Snapshot sessions on PostgreSQL: per session, a connection of its own (not from the pool, which serves live
// traffic) holding a REPEATABLE READ READ ONLY transaction, whose first statement fixes the moment every later read
// of the session sees. The LRU and idle policy is the relational one.
import type pg from 'pg';
import type { SnapshotReads } from '../store.js';
import { SnapshotSessions, type SnapshotSessionOptions } from '../relational/snapshot-sessions.js';

interface Snapshot {
  readonly client: pg.Client;
  readonly reads: SnapshotReads;
}

export interface SnapshotConnections {
  /** A new, unconnected client. */
  connect(): pg.Client;
  /** The reads served over a snapshot's client. */
  readsOver(client: pg.Client): SnapshotReads;
}

async function openSnapshot(connections: SnapshotConnections): Promise<Snapshot> {
  const client = connections.connect();
  try {
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT 1');
    return { client, reads: connections.readsOver(client) };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}

export class PostgresSnapshotSessions {
  readonly #sessions: SnapshotSessions<Promise<Snapshot>>;
  /** Connections being closed, so that closing the store waits until they are gone. */
  readonly #closing = new Set<Promise<void>>();

  constructor(connections: SnapshotConnections, options: SnapshotSessionOptions) {
    this.#sessions = new SnapshotSessions(
      { open: () => openSnapshot(connections), release: (snapshot) => this.#release(snapshot) },
      options,
    );
  }

  /** The session's reads; a snapshot that failed to open is forgotten, so the session's next call tries again. */
  async readsOf(session: string, fresh: boolean): Promise<SnapshotReads | undefined> {
    const snapshot = this.#sessions.snapshotOf(session, fresh);
    if (!snapshot) return undefined;
    try {
      return (await snapshot).reads;
    } catch (error) {
      this.#sessions.discard(session, snapshot);
      throw error;
    }
  }

  async closeAll(): Promise<void> {
    this.#sessions.closeAll();
    await Promise.all(this.#closing);
  }

  #release(snapshot: Promise<Snapshot>): void {
    const closing = snapshot
      .then(({ client }) => client.end())
      .catch(() => {})
      .finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
  }
}
