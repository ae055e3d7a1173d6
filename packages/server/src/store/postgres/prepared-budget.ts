// A bounded number of per-shape prepared statements on each connection. node-postgres keeps every named statement a
// connection has prepared for the connection's life and offers no public way to forget one, so a name per filter
// combination would grow without bound. The store counts the per-shape names it has sent on each connection instead:
// once a connection holds the bound, a new shape runs unnamed (parsed and planned for that request), and a pooled
// connection that overflowed is closed on release, so that the connection replacing it starts empty. A snapshot's
// connection cannot be replaced; it keeps running new shapes unnamed until the snapshot ends.
import pg from 'pg';
import type { StatementText } from './statement-texts.js';

/** Per-shape statements prepared on one connection at most. */
export const PREPARED_SHAPES_PER_CONNECTION = 256;

export class PreparedStatementBudget {
  readonly #prepared = new WeakMap<pg.ClientBase, Set<string>>();
  readonly #overflowed = new WeakSet<pg.ClientBase>();

  constructor(private readonly capacity = PREPARED_SHAPES_PER_CONNECTION) {}

  /** Runs the statement on `db`: over the pool, on one of its connections, released (or retired) afterwards. */
  async rows<Row>(db: pg.Pool | pg.ClientBase, statement: StatementText, values: unknown[]): Promise<Row[]> {
    if (!(db instanceof pg.Pool)) return this.#rowsOn(db, statement, values);
    const client = await db.connect();
    let failure: Error | undefined;
    try {
      return await this.#rowsOn(client, statement, values);
    } catch (error) {
      failure = error as Error;
      throw error;
    } finally {
      // Like pool.query, a failed connection is not reused.
      client.release(failure ?? this.#overflowed.has(client));
    }
  }

  /** The per-shape names counted on the connection. */
  preparedOn(client: pg.ClientBase): number {
    return this.#prepared.get(client)?.size ?? 0;
  }

  async #rowsOn<Row>(client: pg.ClientBase, statement: StatementText, values: unknown[]): Promise<Row[]> {
    const named = this.#mayName(client, statement);
    const result = await client.query(
      named ? { name: statement.name, text: statement.text, values } : { text: statement.text, values },
    );
    return result.rows as Row[];
  }

  #mayName(client: pg.ClientBase, statement: StatementText): boolean {
    if (!statement.perShape) return true;
    let names = this.#prepared.get(client);
    if (names === undefined) {
      names = new Set();
      this.#prepared.set(client, names);
    }
    if (names.has(statement.name)) return true;
    if (names.size >= this.capacity) {
      this.#overflowed.add(client);
      return false;
    }
    names.add(statement.name);
    return true;
  }
}
