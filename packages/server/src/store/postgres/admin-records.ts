// API clients, their vendors and applications, and access tokens on PostgreSQL: the administrative records of the
// instance, with the same semantics as SQLite's.
import type pg from 'pg';
import type {
  AccessTokenRecord,
  ApiClient,
  ApplicationChanges,
  ApplicationDefinition,
  ClaimSetDefinition,
  ClaimSetDeletion,
  ClientOwnership,
  OwnershipTokenNames,
  ClientApplication,
  ClientDetails,
  SaveAccessTokenOptions,
} from '../store.js';
import {
  allApplications,
  findApplication,
  findApplicationById,
  findOrCreateApplication,
  findVendorNamespacePrefixes,
  updateApplication,
} from './admin/application-records.js';
import { findClientOwnership, giveClientTokens } from './admin/ownership-token-records.js';
import { deleteClaimSet, findClaimSet, listClaimSets, saveClaimSets } from './admin/claim-set-records.js';
import { deleteClientTokens, findAccessToken, liveTokenCounts, saveAccessToken } from './admin/token-records.js';
import { inTransaction } from './pool.js';
import { CLIENT_COLUMNS, toClient, type ClientRow } from '../relational/admin-rows.js';
import {
  CLIENT_TOKEN_NAMES_SQL,
  NO_TOKENS,
  tokenNamesByClient,
  type ClientTokenNameRow,
} from '../relational/ownership-token-sql.js';

const SELECT_CLIENT = `SELECT ${CLIENT_COLUMNS} FROM client`;

export class PostgresAdminRecords {
  constructor(private readonly pool: pg.Pool) {}

  async createClient(
    client: ApiClient,
    application?: ApplicationDefinition,
    ownership?: OwnershipTokenNames,
  ): Promise<void> {
    await inTransaction(this.pool, async (connection) => {
      const applicationId = application === undefined ? null : await findOrCreateApplication(connection, application);
      await connection.query(
        'INSERT INTO client (client_key, name, secret_hash, active, created_at, application_id) ' +
          'VALUES ($1, $2, $3, $4, $5, $6)',
        [client.key, client.name, client.secretHash, client.active, client.createdAt, applicationId],
      );
      if (ownership !== undefined) await giveClientTokens(connection, client.key, ownership);
    });
  }

  findClientOwnership(key: string): Promise<ClientOwnership | undefined> {
    return findClientOwnership(this.pool, key);
  }

  async findClient(key: string): Promise<ApiClient | undefined> {
    const row = await this.#clientRow(key);
    return row && toClient(row);
  }

  async listClients(): Promise<ApiClient[]> {
    return (await this.#clientRows()).map(toClient);
  }

  async hasClients(): Promise<boolean> {
    const { rows } = await this.pool.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM client) AS found');
    return rows[0]!.found;
  }

  findVendorNamespacePrefixes(vendorName: string): Promise<string[] | undefined> {
    return findVendorNamespacePrefixes(this.pool, vendorName);
  }

  findApplication(vendorName: string, applicationName: string): Promise<ClientApplication | undefined> {
    return findApplication(this.pool, vendorName, applicationName);
  }

  async findClientApplication(key: string): Promise<ClientApplication | undefined> {
    const applicationId = (await this.#clientRow(key))?.application_id;
    return applicationId === undefined || applicationId === null
      ? undefined
      : findApplicationById(this.pool, applicationId);
  }

  async listClientDetails(now: number): Promise<ClientDetails[]> {
    const [applications, liveTokens, rows, tokenRows] = await Promise.all([
      allApplications(this.pool),
      liveTokenCounts(this.pool, now),
      this.#clientRows(),
      this.pool.query<ClientTokenNameRow>(CLIENT_TOKEN_NAMES_SQL),
    ]);
    const tokenNames = tokenNamesByClient(tokenRows.rows);
    return rows.map((row) => ({
      client: toClient(row),
      application: row.application_id === null ? undefined : applications.get(row.application_id),
      liveTokens: liveTokens.get(row.client_key) ?? 0,
      ownershipTokens: tokenNames.get(row.client_key) ?? NO_TOKENS,
    }));
  }

  revokeClient(key: string): Promise<number | undefined> {
    return inTransaction(this.pool, async (connection) => {
      const deactivated = await connection.query('UPDATE client SET active = false WHERE client_key = $1', [key]);
      return deactivated.rowCount === 0 ? undefined : deleteClientTokens(connection, key);
    });
  }

  updateClientApplication(key: string, changes: ApplicationChanges): Promise<ClientApplication | undefined> {
    return inTransaction(this.pool, async (connection) => {
      const { rows } = await connection.query<{ application_id: number | null }>(
        'SELECT application_id FROM client WHERE client_key = $1 FOR UPDATE',
        [key],
      );
      const applicationId = rows[0]?.application_id;
      if (applicationId === undefined || applicationId === null) return undefined;
      await updateApplication(connection, applicationId, changes);
      return findApplicationById(connection, applicationId);
    });
  }

  saveClaimSets(claimSets: readonly ClaimSetDefinition[]): Promise<void> {
    return saveClaimSets(this.pool, claimSets);
  }

  findClaimSet(name: string): Promise<ClaimSetDefinition | undefined> {
    return findClaimSet(this.pool, name);
  }

  listClaimSets(): Promise<ClaimSetDefinition[]> {
    return listClaimSets(this.pool);
  }

  deleteClaimSet(name: string): Promise<ClaimSetDeletion> {
    return deleteClaimSet(this.pool, name);
  }

  saveAccessToken(token: AccessTokenRecord, options?: SaveAccessTokenOptions): Promise<boolean> {
    return saveAccessToken(this.pool, token, options);
  }

  findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined> {
    return findAccessToken(this.pool, tokenHash, now);
  }

  async #clientRow(key: string): Promise<ClientRow | undefined> {
    const { rows } = await this.pool.query<ClientRow>(`${SELECT_CLIENT} WHERE client_key = $1`, [key]);
    return rows[0];
  }

  async #clientRows(): Promise<ClientRow[]> {
    return (await this.pool.query<ClientRow>(`${SELECT_CLIENT} ORDER BY client_key`)).rows;
  }
}
