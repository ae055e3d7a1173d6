// The Store over one PostgreSQL schema: a sized connection pool, the schema lifecycle, the document writer and reader,
// the descriptor cache, snapshot sessions on their own connections, and the administrative records.
import type pg from 'pg';
import { getModelRegistry, type ExtensionModel, type ModelRegistry, type ResourceModel } from '../../model/index.js';
import type { DescriptorLookup } from '../../model/validation/index.js';
import type {
  ApplicationChanges,
  ClaimSetDefinition,
  ClaimSetDeletion,
  ClientOwnership,
  OwnershipTokenNames,
  AccessFilter,
  AccessTokenRecord,
  ApiClient,
  ApplicationDefinition,
  AuthorizedDocument,
  ClientApplication,
  ClientDetails,
  DeletedDocument,
  DescriptorRow,
  DocumentId,
  DocumentWrite,
  KeyChange,
  ListQuery,
  ListResult,
  MigrationOutcome,
  PartitionQuery,
  SaveAccessTokenOptions,
  SchemaStatus,
  SnapshotOptions,
  SnapshotReads,
  Store,
  StoredDocument,
  StoredProfile,
  StoreOptions,
  SubjectProbe,
  TrackedChangeList,
  TrackedChangeQuery,
  UpsertOutcome,
  WriteOptions,
  WriteOutcome,
} from '../store.js';
import { assertSchemaCurrent } from '../relational/schema-refusal.js';
import { PostgresAdminRecords } from './admin-records.js';
import * as profileRecords from './admin/profile-records.js';
import { PostgresCatalog } from './catalog.js';
import { parsePostgresSpec, type PostgresConnectionSpec } from './connection-spec.js';
import { PostgresDescriptorCache } from './descriptor-cache.js';
import { PostgresDocumentReader } from './document-reader.js';
import { PostgresDocumentWriter } from './document-writer.js';
import { PostgresEdOrgClosure } from './edorg-closure.js';
import { createClient, createPool } from './pool.js';
import { PostgresReadStatements } from './read-statements.js';
import { PostgresReferenceResolver } from './reference-resolution.js';
import {
  migrateSchema,
  planPostgresSchema,
  readResourceTypes,
  schemaStatusOf,
  servedExtensionsOf,
  addedExtensionsOf,
  type PostgresSchemaPlan,
} from './schema.js';
import { SnapshotDirectory } from './snapshot-directory.js';
import { PostgresSnapshotSessions } from './snapshot-sessions.js';
import { PostgresTableStatistics } from './table-statistics.js';
import { DEFAULT_SNAPSHOT_MAX_AGE_MS } from '../relational/snapshot-sessions.js';

const DEFAULT_MAX_CASCADE_DOCUMENTS = 100_000;
const DEFAULT_MAX_SNAPSHOTS = 16;
const DEFAULT_SNAPSHOT_IDLE_MS = 5 * 60_000;

/** Everything that exists only while the store is open. */
interface OpenState {
  readonly pool: pg.Pool;
  readonly descriptors: PostgresDescriptorCache;
  readonly writer: PostgresDocumentWriter;
  readonly reader: PostgresDocumentReader;
  readonly snapshots: PostgresSnapshotSessions;
  readonly admin: PostgresAdminRecords;
  readonly statistics: PostgresTableStatistics;
}

export class PostgresStore implements Store {
  readonly spec: PostgresConnectionSpec;
  #state: OpenState | undefined;
  /** The pool, created by the first call that needs it; `open` builds the store's state on it. */
  #pool: pg.Pool | undefined;
  #plan: PostgresSchemaPlan | undefined;
  readonly #running = new Set<Promise<unknown>>();

  /** Usable once the store is open; the same object across reopening, so callers may keep it. */
  readonly descriptors: DescriptorLookup = {
    exist: (uris) => this.#run(({ descriptors }) => descriptors.exist(uris)),
    storedUris: (uris) => this.#run(({ descriptors }) => descriptors.storedUris(uris)),
  };

  /** @param spec a `postgres://` or `postgresql://` URL, or one already parsed */
  constructor(
    spec: string | PostgresConnectionSpec,
    private readonly registry: ModelRegistry = getModelRegistry(),
    private readonly options: StoreOptions = {},
  ) {
    this.spec = typeof spec === 'string' ? parsePostgresSpec(spec) : spec;
  }

  async schemaStatus(): Promise<SchemaStatus> {
    return schemaStatusOf(this.#connections(), this.spec.schema, this.#schemaPlan());
  }

  async servedExtensions(): Promise<readonly string[] | undefined> {
    return servedExtensionsOf(this.#connections(), this.spec.schema);
  }

  async addedExtensions(): Promise<readonly ExtensionModel[] | undefined> {
    return addedExtensionsOf(this.#connections(), this.spec.schema);
  }

  async migrate(): Promise<MigrationOutcome> {
    return migrateSchema(this.#connections(), this.spec.schema, this.#schemaPlan(), this.registry);
  }

  async open(): Promise<void> {
    if (this.#state) return;
    const pool = this.#connections();
    try {
      const plan = this.#schemaPlan();
      const status = await schemaStatusOf(pool, this.spec.schema, plan);
      assertSchemaCurrent(status);
      const resourceIds = await readResourceTypes(pool);
      const catalog = new PostgresCatalog(plan, resourceIds, this.registry);
      const descriptors = new PostgresDescriptorCache(pool, this.registry, resourceIds);
      await descriptors.load();
      const statements = new PostgresReadStatements(catalog, this.registry);
      const statistics = new PostgresTableStatistics(pool);
      const snapshots = new PostgresSnapshotSessions(
        {
          connect: () => createClient(this.spec),
          readsOver: (client) => new PostgresDocumentReader(client, statements),
        },
        new SnapshotDirectory(pool),
        {
          max: this.options.maxSnapshots ?? DEFAULT_MAX_SNAPSHOTS,
          idleMs: this.options.snapshotIdleMs ?? DEFAULT_SNAPSHOT_IDLE_MS,
          maxAgeMs: this.options.snapshotMaxAgeMs ?? DEFAULT_SNAPSHOT_MAX_AGE_MS,
        },
      );
      const writer = new PostgresDocumentWriter(
        pool,
        this.registry,
        {
          catalog,
          descriptors,
          references: new PostgresReferenceResolver(this.registry, catalog, descriptors),
          edOrgs: new PostgresEdOrgClosure(this.registry),
          statistics,
        },
        { maxCascadeDocuments: this.options.maxCascadeDocuments ?? DEFAULT_MAX_CASCADE_DOCUMENTS },
      );
      const reader = new PostgresDocumentReader(pool, statements);
      const admin = new PostgresAdminRecords(pool);
      this.#state = { pool, descriptors, writer, reader, snapshots, admin, statistics };
    } catch (error) {
      this.#pool = undefined;
      await pool.end();
      throw error;
    }
  }

  /** Lets the operations in progress finish (new ones are refused), then disconnects. */
  async close(): Promise<void> {
    const state = this.#state;
    const pool = this.#pool;
    this.#state = undefined;
    this.#pool = undefined;
    await Promise.all(this.#running);
    if (state) await Promise.all([state.snapshots.closeAll(), state.statistics.close()]);
    if (pool) await pool.end();
  }

  async isEmpty(): Promise<boolean> {
    const { rows } = await this.#run(({ pool }) =>
      pool.query<{ empty: boolean }>(
        'SELECT NOT EXISTS (SELECT 1 FROM document) AND NOT EXISTS (SELECT 1 FROM client) AS empty',
      ),
    );
    return rows[0]!.empty;
  }

  /**
   * ANALYZE of the schema's tables (in one statement, and only this schema's: the database may hold other stores).
   * Autovacuum would get there too, but only after its next pass per table.
   */
  async refreshStatistics(): Promise<void> {
    await this.#run(async ({ pool }) => {
      const { rows } = await pool.query<{ name: string }>(
        'SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
      );
      if (rows.length > 0) await pool.query(`ANALYZE ${rows.map(({ name }) => name).join(', ')}`);
    });
  }

  async upsert(write: DocumentWrite, options?: WriteOptions): Promise<UpsertOutcome> {
    return this.#run(({ writer }) => writer.upsert(write, options));
  }

  async update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): Promise<WriteOutcome> {
    return this.#run(({ writer }) => writer.update(id, write, options));
  }

  async delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): Promise<void> {
    return this.#run(({ writer }) => writer.delete(resource, id, options));
  }

  async get(resource: ResourceModel, id: DocumentId): Promise<StoredDocument | undefined> {
    return this.#run(({ reader }) => reader.get(resource, id));
  }

  async getAuthorized(
    resource: ResourceModel,
    id: DocumentId,
    access: AccessFilter,
  ): Promise<AuthorizedDocument | undefined> {
    return this.#run(({ reader }) => reader.getAuthorized(resource, id, access));
  }

  async findByIdentity(write: DocumentWrite): Promise<StoredDocument | undefined> {
    return this.#run(({ reader }) => reader.findByIdentity(write));
  }

  async ownershipTokenOf(id: DocumentId): Promise<number | undefined> {
    return this.#run(({ reader }) => reader.ownershipTokenOf(id));
  }

  async relatedSubjects(
    educationOrganizationIds: readonly number[],
    probes: readonly SubjectProbe[],
  ): Promise<boolean[]> {
    return this.#run(({ reader }) => reader.relatedSubjects(educationOrganizationIds, probes));
  }

  async list(resource: ResourceModel, query: ListQuery): Promise<ListResult> {
    return this.#run(({ reader }) => reader.list(resource, query));
  }

  async partitionStarts(resource: ResourceModel, query: PartitionQuery): Promise<number[]> {
    return this.#run(({ reader }) => reader.partitionStarts(resource, query));
  }

  async newestChangeVersion(): Promise<number> {
    return this.#run(({ reader }) => reader.newestChangeVersion());
  }

  async deletes(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<DeletedDocument>> {
    return this.#run(({ reader }) => reader.deletes(resource, query));
  }

  async keyChanges(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<KeyChange>> {
    return this.#run(({ reader }) => reader.keyChanges(resource, query));
  }

  async snapshot(session: string, options: SnapshotOptions = {}): Promise<SnapshotReads | undefined> {
    return this.#run(({ snapshots }) => snapshots.readsOf(session, options.fresh ?? false));
  }

  async seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): Promise<number> {
    return this.#run(({ writer }) => writer.seedDescriptors(resource, values));
  }

  async createClient(
    client: ApiClient,
    application?: ApplicationDefinition,
    ownership?: OwnershipTokenNames,
  ): Promise<void> {
    return this.#run(({ admin }) => admin.createClient(client, application, ownership));
  }

  async findClientOwnership(key: string): Promise<ClientOwnership | undefined> {
    return this.#run(({ admin }) => admin.findClientOwnership(key));
  }

  async findClient(key: string): Promise<ApiClient | undefined> {
    return this.#run(({ admin }) => admin.findClient(key));
  }

  async listClients(): Promise<readonly ApiClient[]> {
    return this.#run(({ admin }) => admin.listClients());
  }

  async findVendorNamespacePrefixes(vendorName: string): Promise<readonly string[] | undefined> {
    return this.#run(({ admin }) => admin.findVendorNamespacePrefixes(vendorName));
  }

  async findApplication(vendorName: string, applicationName: string): Promise<ClientApplication | undefined> {
    return this.#run(({ admin }) => admin.findApplication(vendorName, applicationName));
  }

  async findClientApplication(key: string): Promise<ClientApplication | undefined> {
    return this.#run(({ admin }) => admin.findClientApplication(key));
  }

  async listClientDetails(now: number): Promise<readonly ClientDetails[]> {
    return this.#run(({ admin }) => admin.listClientDetails(now));
  }

  async revokeClient(key: string): Promise<number | undefined> {
    return this.#run(({ admin }) => admin.revokeClient(key));
  }

  async saveProfiles(profiles: readonly StoredProfile[]): Promise<void> {
    return this.#run(({ pool }) => profileRecords.saveProfiles(pool, profiles));
  }

  async listProfiles(): Promise<readonly StoredProfile[]> {
    return this.#run(({ pool }) => profileRecords.listProfiles(pool));
  }

  async deleteProfile(name: string): Promise<boolean> {
    return this.#run(({ pool }) => profileRecords.deleteProfile(pool, name));
  }

  async updateClientApplication(key: string, changes: ApplicationChanges): Promise<ClientApplication | undefined> {
    return this.#run(({ admin }) => admin.updateClientApplication(key, changes));
  }

  async saveClaimSets(claimSets: readonly ClaimSetDefinition[]): Promise<void> {
    return this.#run(({ admin }) => admin.saveClaimSets(claimSets));
  }

  async findClaimSet(name: string): Promise<ClaimSetDefinition | undefined> {
    return this.#run(({ admin }) => admin.findClaimSet(name));
  }

  async listClaimSets(): Promise<readonly ClaimSetDefinition[]> {
    return this.#run(({ admin }) => admin.listClaimSets());
  }

  async deleteClaimSet(name: string): Promise<ClaimSetDeletion> {
    return this.#run(({ admin }) => admin.deleteClaimSet(name));
  }

  async saveAccessToken(token: AccessTokenRecord, options?: SaveAccessTokenOptions): Promise<boolean> {
    return this.#run(({ admin }) => admin.saveAccessToken(token, options));
  }

  async findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined> {
    return this.#run(({ admin }) => admin.findAccessToken(tokenHash, now));
  }

  #connections(): pg.Pool {
    this.#pool ??= createPool(this.spec);
    return this.#pool;
  }

  #schemaPlan(): PostgresSchemaPlan {
    this.#plan ??= planPostgresSchema(this.registry);
    return this.#plan;
  }

  /** Runs an operation of the open store, counted until it settles so that `close` lets it finish. */
  async #run<T>(operation: (state: OpenState) => Promise<T>): Promise<T> {
    if (!this.#state) throw new Error('The store is not open');
    const running = operation(this.#state);
    const settled: Promise<unknown> = running.then(
      () => this.#running.delete(settled),
      () => this.#running.delete(settled),
    );
    this.#running.add(settled);
    return running;
  }
}
