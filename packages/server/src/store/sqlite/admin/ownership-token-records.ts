// Named ownership tokens on SQLite: found or created by name, each application's own one, and a client's holdings.
import type Database from 'better-sqlite3';
import type { ClientOwnership, OwnershipTokenNames } from '../../store.js';
import {
  ACCESSIBLE_TOKENS_SQL,
  applicationTokenName,
  CLIENT_OWNERSHIP_SQL,
  clientOwnershipOf,
} from '../../relational/ownership-token-sql.js';

export class OwnershipTokenRecords {
  readonly #find: Database.Statement<[string], number>;
  readonly #insert: Database.Statement<[string]>;
  readonly #setApplicationToken: Database.Statement<[number, number]>;
  readonly #setCreator: Database.Statement<[number, string]>;
  readonly #grant: Database.Statement<[string, number]>;
  readonly #creator: Database.Statement<[string], number | null>;
  readonly #accessible: Database.Statement<[string], number>;

  constructor(db: Database.Database) {
    this.#find = db
      .prepare<[string], number>('SELECT ownership_token_id FROM ownership_token WHERE description = ?')
      .pluck();
    this.#insert = db.prepare('INSERT INTO ownership_token (description) VALUES (?)');
    this.#setApplicationToken = db.prepare('UPDATE application SET ownership_token_id = ? WHERE application_id = ?');
    this.#setCreator = db.prepare('UPDATE client SET creator_ownership_token_id = ? WHERE client_key = ?');
    this.#grant = db.prepare(
      'INSERT OR IGNORE INTO client_ownership_token (client_key, ownership_token_id) VALUES (?, ?)',
    );
    this.#creator = db.prepare<[string], number | null>(`${CLIENT_OWNERSHIP_SQL}?`).pluck();
    this.#accessible = db.prepare<[string], number>(`${ACCESSIBLE_TOKENS_SQL}?`).pluck();
  }

  /** Inside the caller's transaction. */
  giveApplicationToken(applicationId: number): void {
    this.#setApplicationToken.run(this.#idOf(applicationTokenName(applicationId)), applicationId);
  }

  /** Inside the caller's transaction, after the client's row. */
  giveClientTokens(clientKey: string, names: OwnershipTokenNames): void {
    if (names.creator !== undefined) this.#setCreator.run(this.#idOf(names.creator), clientKey);
    for (const name of names.accessible ?? []) this.#grant.run(clientKey, this.#idOf(name));
  }

  find(clientKey: string): ClientOwnership | undefined {
    return clientOwnershipOf(this.#creator.get(clientKey), this.#accessible.all(clientKey));
  }

  #idOf(name: string): number {
    return this.#find.get(name) ?? Number(this.#insert.run(name).lastInsertRowid);
  }
}
