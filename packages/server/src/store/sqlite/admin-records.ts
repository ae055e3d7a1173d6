// API clients and access tokens: the administrative records of the instance.
import type Database from 'better-sqlite3';
import type { AccessTokenRecord, ApiClient } from '../store.js';

interface ClientRow {
  readonly client_key: string;
  readonly name: string;
  readonly secret_hash: string;
  readonly active: number;
  readonly created_at: string;
}

interface TokenRow {
  readonly token_hash: string;
  readonly client_key: string;
  readonly expires_at: number;
}

function toClient(row: ClientRow): ApiClient {
  return {
    key: row.client_key,
    name: row.name,
    secretHash: row.secret_hash,
    active: row.active === 1,
    createdAt: row.created_at,
  };
}

export class AdminRecords {
  readonly #insertClient: Database.Statement<[string, string, string, number, string]>;
  readonly #findClient: Database.Statement<[string], ClientRow>;
  readonly #listClients: Database.Statement<[], ClientRow>;
  readonly #hasClients: Database.Statement<[], number>;
  readonly #saveToken: Database.Transaction<(token: AccessTokenRecord, now: number) => void>;
  readonly #findToken: Database.Statement<[string, number], TokenRow>;

  constructor(db: Database.Database) {
    const clientColumns = 'client_key, name, secret_hash, active, created_at';
    this.#insertClient = db.prepare(`INSERT INTO client (${clientColumns}) VALUES (?, ?, ?, ?, ?)`);
    this.#findClient = db.prepare(`SELECT ${clientColumns} FROM client WHERE client_key = ?`);
    this.#listClients = db.prepare(`SELECT ${clientColumns} FROM client ORDER BY client_key`);
    this.#hasClients = db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM client)').pluck();
    const insertToken = db.prepare<[string, string, number]>(
      'INSERT INTO access_token (token_hash, client_key, expires_at) VALUES (?, ?, ?)',
    );
    // Expired tokens are purged whenever a token is issued, which keeps the table at the live-token count.
    const purgeExpired = db.prepare<[number]>('DELETE FROM access_token WHERE expires_at <= ?');
    this.#saveToken = db.transaction((token: AccessTokenRecord, now: number) => {
      purgeExpired.run(now);
      insertToken.run(token.tokenHash, token.clientKey, token.expiresAt);
    });
    this.#findToken = db.prepare(
      'SELECT token_hash, client_key, expires_at FROM access_token WHERE token_hash = ? AND expires_at > ?',
    );
  }

  createClient(client: ApiClient): void {
    this.#insertClient.run(client.key, client.name, client.secretHash, client.active ? 1 : 0, client.createdAt);
  }

  findClient(key: string): ApiClient | undefined {
    const row = this.#findClient.get(key);
    return row && toClient(row);
  }

  listClients(): ApiClient[] {
    return this.#listClients.all().map(toClient);
  }

  hasClients(): boolean {
    return this.#hasClients.get() === 1;
  }

  saveAccessToken(token: AccessTokenRecord): void {
    this.#saveToken.immediate(token, Date.now());
  }

  findAccessToken(tokenHash: string, now: number): AccessTokenRecord | undefined {
    const row = this.#findToken.get(tokenHash, now);
    return row && { tokenHash: row.token_hash, clientKey: row.client_key, expiresAt: row.expires_at };
  }
}
