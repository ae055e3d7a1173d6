// The Store over one SQLite database file (or memory): wires the schema, statements, caches and the write path
// together and adapts better-sqlite3's synchronous calls to the Store interface.
import type Database from 'better-sqlite3';
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
  AuthorizedDocument,
  ApiClient,
  ApplicationDefinition,
  ClientApplication,
  ClientDetails,
  SaveAccessTokenOptions,
  DeletedDocument,
  DescriptorRow,
  DocumentId,
  DocumentWrite,
  KeyChange,
  ListQuery,
  MigrationOutcome,
  ListResult,
  PartitionQuery,
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
import { DESCRIPTOR_EDGE_TABLE, DOCUMENT_EDGE_TABLE } from '../relational/schema-plan.js';
import { assertSchemaCurrent } from '../relational/schema-refusal.js';
import { AdminRecords } from './admin-records.js';
import * as profileRecords from './admin/profile-records.js';
import {
  checkpointWal,
  closeConnection,
  openConnection,
  openSnapshotConnection,
  walBytes,
  type ConnectionOptions,
} from './connection.js';
import { DEFAULT_SNAPSHOT_MAX_AGE_MS } from '../relational/snapshot-sessions.js';
import { DescriptorCache } from './descriptor-cache.js';
import { DocumentReader } from './document-reader.js';
import { OffsetPages } from '../relational/offset-pages.js';
import { DocumentRegistry } from './document-registry.js';
import { DocumentWriter } from './document-writer.js';
import { EdOrgClosure } from './edorg-closure.js';
import { GroupCommit } from './group-commit.js';
import { GroupReads } from './group-reads.js';
import { EdgeTable } from './reference-edges.js';
import { ReferenceResolver } from './reference-resolution.js';
import {
  migrateSchema,
  planSchema,
  readResourceTypes,
  schemaStatusOf,
  servedExtensionsOf,
  addedExtensionsOf,
  type SchemaPlan,
} from './schema.js';
import { SnapshotSessions, type Snapshot } from './snapshot-sessions.js';
import { TableCatalog } from './table-catalog.js';
import { TrackedChangeLog } from './tracked-change-log.js';

export type SqliteStoreOptions = ConnectionOptions & StoreOptions;

const DEFAULT_MAX_CASCADE_DOCUMENTS = 100_000;
const DEFAULT_MAX_SNAPSHOTS = 16;
const DEFAULT_SNAPSHOT_IDLE_MS = 5 * 60_000;
const DEFAULT_SNAPSHOT_MAX_WAL_BYTES = 1024 ** 3;

/** Everything that exists only while the database is open. */
interface OpenState {
  readonly db: Database.Database;
  readonly plan: SchemaPlan;
  readonly resourceIds: ReadonlyMap<string, number>;
  readonly descriptors: DescriptorCache;
  readonly documents: DocumentRegistry;
  readonly writer: DocumentWriter;
  /** Document writes go through it: one transaction for the writes of one event-loop turn. */
  readonly commits: GroupCommit;
  readonly reader: DocumentReader;
  /** Where pages ended, for the live reader and the snapshots' alike. */
  readonly pages: OffsetPages;
  /** The reads that answer GETs go through it: one read transaction for those of one event-loop turn. */
  readonly reads: GroupReads;
  readonly snapshots: SnapshotSessions;
  readonly admin: AdminRecords;
}

/** A snapshot's reader behind the Store's asynchronous read methods. */
function snapshotReads(reader: DocumentReader): SnapshotReads {
  return {
    get: async (resource, id) => reader.get(resource, id),
    getAuthorized: async (resource, id, access) => reader.getAuthorized(resource, id, access),
    list: async (resource, query) => reader.list(resource, query),
    partitionStarts: async (resource, query) => reader.partitionStarts(resource, query),
    newestChangeVersion: async () => reader.newestChangeVersion(),
    deletes: async (resource, query) => reader.deletes(resource, query),
    keyChanges: async (resource, query) => reader.keyChanges(resource, query),
  };
}

export class SqliteStore implements Store {
  #state: OpenState | undefined;
  /** The connection, opened by the first call that needs it; `open` builds the store's state on it. */
  #db: Database.Database | undefined;
  #plan: SchemaPlan | undefined;

  /** Usable once the store is open; the same object across reopening, so callers may keep it. */
  readonly descriptors: DescriptorLookup = {
    exist: async (uris) => this.#open().descriptors.exist(uris),
    storedUris: async (uris) => this.#open().descriptors.storedUris(uris),
  };

  /** @param location a file path, or `:memory:` */
  constructor(
    readonly location: string,
    private readonly registry: ModelRegistry = getModelRegistry(),
    private readonly options: SqliteStoreOptions = {},
  ) {}

  async schemaStatus(): Promise<SchemaStatus> {
    return schemaStatusOf(this.#connection(), this.#schemaPlan());
  }

  async migrate(): Promise<MigrationOutcome> {
    return migrateSchema(this.#connection(), this.#schemaPlan(), this.registry);
  }

  async servedExtensions(): Promise<readonly string[] | undefined> {
    return servedExtensionsOf(this.#connection());
  }

  async addedExtensions(): Promise<readonly ExtensionModel[] | undefined> {
    return addedExtensionsOf(this.#connection());
  }

  async open(): Promise<void> {
    if (this.#state) return;
    const db = this.#connection();
    try {
      const plan = this.#schemaPlan();
      const status = schemaStatusOf(db, plan);
      assertSchemaCurrent(status);
      const resourceIds = readResourceTypes(db);
      const catalog = new TableCatalog(db, plan, resourceIds, this.registry);
      const descriptors = new DescriptorCache(db, this.registry, resourceIds);
      descriptors.load();
      const documents = new DocumentRegistry(db);
      const edges = {
        documents: new EdgeTable(db, DOCUMENT_EDGE_TABLE),
        descriptors: new EdgeTable(db, DESCRIPTOR_EDGE_TABLE),
      };
      const resolver = new ReferenceResolver(this.registry, catalog, descriptors);
      const edOrgs = new EdOrgClosure(db, this.registry);
      edOrgs.backfill((resource) => catalog.tableOf(resource).layout.table);
      const writer = new DocumentWriter(
        db,
        this.registry,
        catalog,
        documents,
        edges,
        resolver,
        descriptors,
        new TrackedChangeLog(db),
        edOrgs,
        { maxCascadeDocuments: this.options.maxCascadeDocuments ?? DEFAULT_MAX_CASCADE_DOCUMENTS },
      );
      const snapshots = new SnapshotSessions(
        () => this.#openSnapshot(),
        {
          max: this.options.maxSnapshots ?? DEFAULT_MAX_SNAPSHOTS,
          idleMs: this.options.snapshotIdleMs ?? DEFAULT_SNAPSHOT_IDLE_MS,
          maxAgeMs: this.options.snapshotMaxAgeMs ?? DEFAULT_SNAPSHOT_MAX_AGE_MS,
        },
        {
          pinsTooMuch: () =>
            walBytes(db, this.location) > (this.options.snapshotMaxWalBytes ?? DEFAULT_SNAPSHOT_MAX_WAL_BYTES),
          reclaim: () => setImmediate(() => checkpointWal(db)),
        },
      );
      const commits = new GroupCommit(db, {
        onBatchFailure: () => descriptors.load(),
        ...(this.options.busyTimeoutMs === undefined ? {} : { lockWaitMs: this.options.busyTimeoutMs }),
      });
      const pages = new OffsetPages();
      const reader = new DocumentReader(db, catalog, this.registry, pages);
      const reads = new GroupReads(db);
      const admin = new AdminRecords(db);
      this.#state = {
        db,
        plan,
        resourceIds,
        descriptors,
        documents,
        writer,
        commits,
        reader,
        pages,
        reads,
        snapshots,
        admin,
      };
    } catch (error) {
      this.#db = undefined;
      db.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const state = this.#state;
    const db = this.#db;
    this.#state = undefined;
    this.#db = undefined;
    if (state) {
      state.reads.drain();
      state.commits.drain();
      state.snapshots.closeAll();
    }
    if (db) closeConnection(db);
  }

  async isEmpty(): Promise<boolean> {
    const { documents, admin } = this.#open();
    return !documents.hasDocuments() && !admin.hasClients();
  }

  /**
   * Nothing to refresh: the store keeps no `sqlite_stat1`, so SQLite plans every statement from the schema alone,
   * whatever the tables hold.
   */
  async refreshStatistics(): Promise<void> {
    this.#open();
  }

  upsert(write: DocumentWrite, options?: WriteOptions): Promise<UpsertOutcome> {
    return this.#write((writer) => writer.upsert(write, options));
  }

  update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): Promise<WriteOutcome> {
    return this.#write((writer) => writer.update(id, write, options));
  }

  delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): Promise<void> {
    return this.#write((writer) => writer.delete(resource, id, options));
  }

  async get(resource: ResourceModel, id: DocumentId): Promise<StoredDocument | undefined> {
    return this.#read((reader) => reader.get(resource, id));
  }

  async getAuthorized(
    resource: ResourceModel,
    id: DocumentId,
    access: AccessFilter,
  ): Promise<AuthorizedDocument | undefined> {
    return this.#read((reader) => reader.getAuthorized(resource, id, access));
  }

  async findByIdentity(write: DocumentWrite): Promise<StoredDocument | undefined> {
    return this.#read((reader) => reader.findByIdentity(write));
  }

  async ownershipTokenOf(id: DocumentId): Promise<number | undefined> {
    return this.#read((reader) => reader.ownershipTokenOf(id));
  }

  async relatedSubjects(
    educationOrganizationIds: readonly number[],
    probes: readonly SubjectProbe[],
  ): Promise<boolean[]> {
    return this.#read((reader) => reader.relatedSubjects(educationOrganizationIds, probes));
  }

  async list(resource: ResourceModel, query: ListQuery): Promise<ListResult> {
    return this.#read((reader) => reader.list(resource, query));
  }

  async partitionStarts(resource: ResourceModel, query: PartitionQuery): Promise<number[]> {
    return this.#read((reader) => reader.partitionStarts(resource, query));
  }

  async newestChangeVersion(): Promise<number> {
    return this.#read((reader) => reader.newestChangeVersion());
  }

  async deletes(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<DeletedDocument>> {
    return this.#read((reader) => reader.deletes(resource, query));
  }

  async keyChanges(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<KeyChange>> {
    return this.#read((reader) => reader.keyChanges(resource, query));
  }

  async snapshot(session: string, options: SnapshotOptions = {}): Promise<SnapshotReads | undefined> {
    const reader = this.#open().snapshots.readerOf(session, options.fresh ?? false);
    return reader && snapshotReads(reader);
  }

  async seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): Promise<number> {
    return this.#open().writer.seedDescriptors(resource, values);
  }

  async createClient(
    client: ApiClient,
    application?: ApplicationDefinition,
    ownership?: OwnershipTokenNames,
  ): Promise<void> {
    this.#open().admin.createClient(client, application, ownership);
  }

  async findClientOwnership(key: string): Promise<ClientOwnership | undefined> {
    return this.#open().admin.findClientOwnership(key);
  }

  async findClient(key: string): Promise<ApiClient | undefined> {
    return this.#open().admin.findClient(key);
  }

  async listClients(): Promise<readonly ApiClient[]> {
    return this.#open().admin.listClients();
  }

  async findVendorNamespacePrefixes(vendorName: string): Promise<readonly string[] | undefined> {
    return this.#open().admin.findVendorNamespacePrefixes(vendorName);
  }

  async findApplication(vendorName: string, applicationName: string): Promise<ClientApplication | undefined> {
    return this.#open().admin.findApplication(vendorName, applicationName);
  }

  async findClientApplication(key: string): Promise<ClientApplication | undefined> {
    return this.#open().admin.findClientApplication(key);
  }

  async listClientDetails(now: number): Promise<readonly ClientDetails[]> {
    return this.#open().admin.listClientDetails(now);
  }

  async revokeClient(key: string): Promise<number | undefined> {
    return this.#open().admin.revokeClient(key);
  }

  async saveProfiles(profiles: readonly StoredProfile[]): Promise<void> {
    profileRecords.saveProfiles(this.#open().db, profiles);
  }

  async listProfiles(): Promise<readonly StoredProfile[]> {
    return profileRecords.listProfiles(this.#open().db);
  }

  async deleteProfile(name: string): Promise<boolean> {
    return profileRecords.deleteProfile(this.#open().db, name);
  }

  async updateClientApplication(key: string, changes: ApplicationChanges): Promise<ClientApplication | undefined> {
    return this.#open().admin.updateClientApplication(key, changes);
  }

  async saveClaimSets(claimSets: readonly ClaimSetDefinition[]): Promise<void> {
    this.#open().admin.saveClaimSets(claimSets);
  }

  async findClaimSet(name: string): Promise<ClaimSetDefinition | undefined> {
    return this.#open().admin.findClaimSet(name);
  }

  async listClaimSets(): Promise<readonly ClaimSetDefinition[]> {
    return this.#open().admin.listClaimSets();
  }

  async deleteClaimSet(name: string): Promise<ClaimSetDeletion> {
    return this.#open().admin.deleteClaimSet(name);
  }

  async saveAccessToken(token: AccessTokenRecord, options?: SaveAccessTokenOptions): Promise<boolean> {
    return this.#open().admin.saveAccessToken(token, options);
  }

  async findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined> {
    return this.#open().admin.findAccessToken(tokenHash, now);
  }

  #openSnapshot(): Snapshot {
    const { db: live, plan, resourceIds, pages } = this.#open();
    const db = openSnapshotConnection(live, this.location, this.options);
    try {
      return {
        db,
        reader: new DocumentReader(db, new TableCatalog(db, plan, resourceIds, this.registry), this.registry, pages),
      };
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #connection(): Database.Database {
    this.#db ??= openConnection(this.location, this.options);
    return this.#db;
  }

  #schemaPlan(): SchemaPlan {
    this.#plan ??= planSchema(this.registry);
    return this.#plan;
  }

  #read<T>(read: (reader: DocumentReader) => T): Promise<T> {
    const { reads, reader } = this.#open();
    return reads.run(() => read(reader));
  }

  async #write<T>(work: (writer: DocumentWriter) => T): Promise<T> {
    const { commits, writer } = this.#open();
    return commits.run(() => work(writer));
  }

  #open(): OpenState {
    if (!this.#state) throw new Error('The store is not open');
    return this.#state;
  }
}
