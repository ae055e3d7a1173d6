// Snapshot sessions on PostgreSQL: per session, a connection of its own (not from the pool, which serves live
// traffic) holding a REPEATABLE READ READ ONLY transaction, whose first statement fixes the moment every later read
// of the session sees; that moment is shared with the other nodes of the database through the snapshot directory.
// The LRU and idle policy is the relational one, per process.
import type pg from 'pg';
import type { SnapshotReads } from '../store.js';
import { SnapshotSessions, type SnapshotSessionOptions } from '../relational/snapshot-sessions.js';
import type { SharedSnapshot, SnapshotDirectory } from './snapshot-directory.js';

interface Snapshot {
  readonly client: pg.Client;
  readonly reads: SnapshotReads;
  readonly generation: number;
}

export interface SnapshotConnections {
  /** A new, unconnected client. */
  connect(): pg.Client;
  /** The reads served over a snapshot's client. */
  readsOver(client: pg.Client): SnapshotReads;
}

/** What opening a session's snapshot should do: import the one other nodes share, or take a new generation. */
type Opening = { readonly follow: SharedSnapshot } | { readonly renew: true } | { readonly follow?: undefined };

const BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** Imports the shared snapshot; false when it is gone (no node holds the session's transaction open any more). */
async function imported(client: pg.Client, shared: SharedSnapshot): Promise<boolean> {
  try {
    // The name is the server's own export (hex digits and dashes), checked before it is quoted in.
    if (!/^[0-9A-F-]+$/i.test(shared.exported)) return false;
    await client.query(`${BEGIN}; SET TRANSACTION SNAPSHOT '${shared.exported}'`);
    return true;
  } catch {
    await client.query('ROLLBACK');
    return false;
  }
}

async function openSnapshot(
  connections: SnapshotConnections,
  directory: SnapshotDirectory,
  session: string,
  opening: Opening,
): Promise<Snapshot> {
  const client = connections.connect();
  try {
    await client.connect();
    const shared = 'renew' in opening ? undefined : (opening.follow ?? (await directory.current(session)));
    const following = shared !== undefined && (await imported(client, shared));
    if (!following) await client.query(`${BEGIN}; SELECT 1`);
    const generation = following ? shared.generation : ((await directory.current(session))?.generation ?? 0) + 1;
    const { rows } = await client.query<{ exported: string }>('SELECT pg_export_snapshot() AS exported');
    await directory.publish(session, { generation, exported: rows[0]!.exported });
    return { client, reads: connections.readsOver(client), generation };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}

/**
 * Snapshot sessions shared by every process on the database: a session's snapshot is opened by whichever node serves
 * it first and published; another node imports it, and follows when a node renews the session.
 */
export class PostgresSnapshotSessions {
  readonly #sessions: SnapshotSessions<Promise<Snapshot>>;
  readonly #directory: SnapshotDirectory;
  /** What the next open does; set right before the synchronous call that may open. */
  #opening: Opening = {};
  /** Connections being closed, so that closing the store waits until they are gone. */
  readonly #closing = new Set<Promise<void>>();

  constructor(connections: SnapshotConnections, directory: SnapshotDirectory, options: SnapshotSessionOptions) {
    this.#directory = directory;
    this.#sessions = new SnapshotSessions(
      {
        open: (session) => openSnapshot(connections, directory, session, this.#opening),
        release: (snapshot) => this.#release(snapshot),
      },
      options,
    );
  }

  /** The session's reads; a snapshot that failed to open is forgotten, so the session's next call tries again. */
  async readsOf(session: string, fresh: boolean): Promise<SnapshotReads | undefined> {
    if (fresh) return this.#readsOf(session, true, { renew: true });
    const reads = await this.#readsOf(session, false, {});
    if (reads === undefined) return undefined;
    // Another node may have renewed the session since: follow it.
    const [shared, local] = await Promise.all([
      this.#directory.current(session),
      this.#sessions.snapshotOf(session, false),
    ]);
    if (shared === undefined || shared.generation <= (await local!).generation) return reads;
    return this.#readsOf(session, true, { follow: shared });
  }

  async #readsOf(session: string, fresh: boolean, opening: Opening): Promise<SnapshotReads | undefined> {
    this.#opening = opening;
    const snapshot = this.#sessions.snapshotOf(session, fresh);
    this.#opening = {};
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
