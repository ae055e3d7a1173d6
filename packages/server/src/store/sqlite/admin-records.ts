// API clients, their vendors and applications, and access tokens: the administrative records of the instance.
import type Database from 'better-sqlite3';
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
import { CLIENT_COLUMNS, toClient, type ClientRow } from '../relational/admin-rows.js';
import {
  CLIENT_TOKEN_NAMES_SQL,
  NO_TOKENS,
  tokenNamesByClient,
  type ClientTokenNameRow,
} from '../relational/ownership-token-sql.js';
import { ApplicationRecords } from './admin/application-records.js';
import { ClaimSetRecords } from './admin/claim-set-records.js';
import { OwnershipTokenRecords } from './admin/ownership-token-records.js';
import { TokenRecords } from './admin/token-records.js';

type ClientValues = [string, string, string, number, string, number | null];

export class AdminRecords {
  readonly #applications: ApplicationRecords;
  readonly #tokens: TokenRecords;
  readonly #claimSets: ClaimSetRecords;
  readonly #ownership: OwnershipTokenRecords;
  readonly #updateApplication: Database.Transaction<
    (key: string, changes: ApplicationChanges) => ClientApplication | undefined
  >;
  readonly #createClient: Database.Transaction<
    (client: ApiClient, application?: ApplicationDefinition, ownership?: OwnershipTokenNames) => void
  >;
  readonly #findClient: Database.Statement<[string], ClientRow>;
  readonly #listClients: Database.Statement<[], ClientRow>;
  readonly #listTokenNames: Database.Statement<[], ClientTokenNameRow>;
  readonly #hasClients: Database.Statement<[], number>;
  readonly #revokeClient: Database.Transaction<(key: string) => number | undefined>;

  constructor(db: Database.Database) {
    this.#applications = new ApplicationRecords(db);
    this.#tokens = new TokenRecords(db);
    this.#claimSets = new ClaimSetRecords(db);
    this.#ownership = new OwnershipTokenRecords(db);
    this.#updateApplication = db.transaction((key: string, changes: ApplicationChanges) => {
      const applicationId = this.#findClient.get(key)?.application_id;
      if (applicationId === undefined || applicationId === null) return undefined;
      this.#applications.update(applicationId, changes);
      return this.#applications.findById(applicationId);
    });
    const insertClient = db.prepare<ClientValues>(`INSERT INTO client (${CLIENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`);
    this.#createClient = db.transaction(
      (client: ApiClient, application?: ApplicationDefinition, ownership?: OwnershipTokenNames) => {
        const applicationId =
          application === undefined
            ? null
            : this.#applications.findOrCreate(application, (id) => this.#ownership.giveApplicationToken(id));
        insertClient.run(
          client.key,
          client.name,
          client.secretHash,
          client.active ? 1 : 0,
          client.createdAt,
          applicationId,
        );
        if (ownership !== undefined) this.#ownership.giveClientTokens(client.key, ownership);
      },
    );
    this.#findClient = db.prepare(`SELECT ${CLIENT_COLUMNS} FROM client WHERE client_key = ?`);
    this.#listClients = db.prepare(`SELECT ${CLIENT_COLUMNS} FROM client ORDER BY client_key`);
    this.#listTokenNames = db.prepare(CLIENT_TOKEN_NAMES_SQL);
    this.#hasClients = db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM client)').pluck();
    const deactivate = db.prepare<[string]>('UPDATE client SET active = 0 WHERE client_key = ?');
    this.#revokeClient = db.transaction((key: string) =>
      deactivate.run(key).changes === 0 ? undefined : this.#tokens.deleteForClient(key),
    );
  }

  createClient(client: ApiClient, application?: ApplicationDefinition, ownership?: OwnershipTokenNames): void {
    this.#createClient.immediate(client, application, ownership);
  }

  findClientOwnership(key: string): ClientOwnership | undefined {
    return this.#ownership.find(key);
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

  findVendorNamespacePrefixes(vendorName: string): string[] | undefined {
    return this.#applications.findVendorNamespacePrefixes(vendorName);
  }

  findApplication(vendorName: string, applicationName: string): ClientApplication | undefined {
    return this.#applications.find(vendorName, applicationName);
  }

  findClientApplication(key: string): ClientApplication | undefined {
    const applicationId = this.#findClient.get(key)?.application_id;
    return applicationId === undefined || applicationId === null
      ? undefined
      : this.#applications.findById(applicationId);
  }

  listClientDetails(now: number): ClientDetails[] {
    const applications = this.#applications.all();
    const liveTokens = this.#tokens.liveCounts(now);
    const tokenNames = tokenNamesByClient(this.#listTokenNames.all());
    return this.#listClients.all().map((row) => ({
      client: toClient(row),
      application: row.application_id === null ? undefined : applications.get(row.application_id),
      liveTokens: liveTokens.get(row.client_key) ?? 0,
      ownershipTokens: tokenNames.get(row.client_key) ?? NO_TOKENS,
    }));
  }

  revokeClient(key: string): number | undefined {
    return this.#revokeClient.immediate(key);
  }

  updateClientApplication(key: string, changes: ApplicationChanges): ClientApplication | undefined {
    return this.#updateApplication.immediate(key, changes);
  }

  saveClaimSets(claimSets: readonly ClaimSetDefinition[]): void {
    this.#claimSets.save(claimSets);
  }

  findClaimSet(name: string): ClaimSetDefinition | undefined {
    return this.#claimSets.find(name);
  }

  listClaimSets(): ClaimSetDefinition[] {
    return this.#claimSets.all();
  }

  deleteClaimSet(name: string): ClaimSetDeletion {
    return this.#claimSets.delete(name);
  }

  saveAccessToken(token: AccessTokenRecord, options?: SaveAccessTokenOptions): boolean {
    return this.#tokens.save(token, options);
  }

  findAccessToken(tokenHash: string, now: number): AccessTokenRecord | undefined {
    return this.#tokens.find(tokenHash, now);
  }
}
