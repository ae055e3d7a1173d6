// Access tokens: saved within the per-client limit, found while unexpired for active clients, purged once expired.
import type Database from 'better-sqlite3';
import type { AccessTokenRecord, SaveAccessTokenOptions } from '../../store.js';
import { TOKEN_COLUMNS, toToken, type TokenRow } from '../../relational/admin-rows.js';

export class TokenRecords {
  readonly #save: Database.Transaction<(token: AccessTokenRecord, limit: number, now: number) => boolean>;
  readonly #find: Database.Statement<[string, number], TokenRow>;
  readonly #liveCounts: Database.Statement<[number], { client_key: string; tokens: number }>;
  readonly #deleteForClient: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    const purgeExpired = db.prepare<[number]>('DELETE FROM access_token WHERE expires_at <= ?');
    const countForClient = db
      .prepare<[string], number>('SELECT COUNT(*) FROM access_token WHERE client_key = ?')
      .pluck();
    const insert = db.prepare<[string, string, number, number | null]>(
      'INSERT INTO access_token (token_hash, client_key, expires_at, education_organization_id) VALUES (?, ?, ?, ?)',
    );
    // Expired tokens go whenever a token is issued, so the table holds little more than the live tokens, and
    // counting a client's rows after the purge counts its live tokens.
    this.#save = db.transaction((token: AccessTokenRecord, limit: number, now: number) => {
      purgeExpired.run(now);
      if (countForClient.get(token.clientKey)! >= limit) return false;
      insert.run(token.tokenHash, token.clientKey, token.expiresAt, token.educationOrganizationId ?? null);
      return true;
    });
    this.#find = db.prepare(
      `SELECT ${TOKEN_COLUMNS} FROM access_token t ` +
        'JOIN client c ON c.client_key = t.client_key WHERE t.token_hash = ? AND t.expires_at > ? AND c.active = 1',
    );
    this.#liveCounts = db.prepare(
      'SELECT client_key, COUNT(*) AS tokens FROM access_token WHERE expires_at > ? GROUP BY client_key',
    );
    this.#deleteForClient = db.prepare('DELETE FROM access_token WHERE client_key = ?');
  }

  save(token: AccessTokenRecord, options: SaveAccessTokenOptions = {}): boolean {
    return this.#save.immediate(token, options.perClientLimit ?? Infinity, options.now ?? Date.now());
  }

  find(tokenHash: string, now: number): AccessTokenRecord | undefined {
    const row = this.#find.get(tokenHash, now);
    return row && toToken(row);
  }

  liveCounts(now: number): Map<string, number> {
    return new Map(this.#liveCounts.all(now).map((row) => [row.client_key, row.tokens]));
  }

  /** Runs inside the caller's transaction; returns how many tokens went. */
  deleteForClient(clientKey: string): number {
    return this.#deleteForClient.run(clientKey).changes;
  }
}
