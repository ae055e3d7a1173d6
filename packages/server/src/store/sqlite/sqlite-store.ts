// The Store over one SQLite database file (or memory): wires the schema, statements, caches and the write path
// together and adapts better-sqlite3's synchronous calls to the Store interface.
import type Database from 'better-sqlite3';
import { getModelRegistry, type ModelRegistry, type ResourceModel } from '../../model/index.js';
import type { DescriptorLookup } from '../../model/validation/index.js';
import type {
  AccessTokenRecord,
  ApiClient,
  DescriptorRow,
  DocumentId,
  DocumentWrite,
  ListQuery,
  ListResult,
  Store,
  StoredDocument,
  UpsertOutcome,
  WriteOptions,
  WriteOutcome,
} from '../store.js';
import { AdminRecords } from './admin-records.js';
import { closeConnection, openConnection, type ConnectionOptions } from './connection.js';
import { DescriptorCache } from './descriptor-cache.js';
import { DocumentRegistry } from './document-registry.js';
import { DocumentWriter } from './document-writer.js';
import { ListQueries } from './list-queries.js';
import { EdgeTable } from './reference-edges.js';
import { ReferenceResolver } from './reference-resolution.js';
import {
  DESCRIPTOR_EDGE_TABLE,
  DOCUMENT_EDGE_TABLE,
  migrateSchema,
  planSchema,
  registerResourceTypes,
} from './schema.js';
import { toStoredDocument } from './stored-documents.js';
import { TableCatalog } from './table-catalog.js';

export type SqliteStoreOptions = ConnectionOptions;

/** Everything that exists only while the database is open. */
interface OpenState {
  readonly db: Database.Database;
  readonly descriptors: DescriptorCache;
  readonly catalog: TableCatalog;
  readonly documents: DocumentRegistry;
  readonly writer: DocumentWriter;
  readonly admin: AdminRecords;
  readonly listQueries: Map<ResourceModel, ListQueries>;
}

export class SqliteStore implements Store {
  #state: OpenState | undefined;

  /** Usable once the store is open; the same object across reopening, so callers may keep it. */
  readonly descriptors: DescriptorLookup = {
    exists: (namespace, descriptor, uri) => this.#open().descriptors.exists(namespace, descriptor, uri),
  };

  /** @param location a file path, or `:memory:` */
  constructor(
    readonly location: string,
    private readonly registry: ModelRegistry = getModelRegistry(),
    private readonly options: SqliteStoreOptions = {},
  ) {}

  async open(): Promise<void> {
    if (this.#state) return;
    const db = openConnection(this.location, this.options);
    try {
      const plan = planSchema(this.registry);
      migrateSchema(db, plan);
      const resourceIds = registerResourceTypes(db, this.registry);
      const catalog = new TableCatalog(db, plan, resourceIds, this.registry);
      const descriptors = new DescriptorCache(db, this.registry, resourceIds);
      descriptors.load();
      const documents = new DocumentRegistry(db);
      const edges = {
        documents: new EdgeTable(db, DOCUMENT_EDGE_TABLE),
        descriptors: new EdgeTable(db, DESCRIPTOR_EDGE_TABLE),
      };
      const resolver = new ReferenceResolver(this.registry, catalog, descriptors);
      const writer = new DocumentWriter(db, this.registry, catalog, documents, edges, resolver, descriptors);
      const admin = new AdminRecords(db);
      this.#state = { db, descriptors, catalog, documents, writer, admin, listQueries: new Map() };
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    const state = this.#state;
    if (!state) return;
    this.#state = undefined;
    closeConnection(state.db);
  }

  async isEmpty(): Promise<boolean> {
    const { documents, admin } = this.#open();
    return !documents.hasDocuments() && !admin.hasClients();
  }

  async upsert(write: DocumentWrite, options?: WriteOptions): Promise<UpsertOutcome> {
    return this.#open().writer.upsert(write, options);
  }

  async update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): Promise<WriteOutcome> {
    return this.#open().writer.update(id, write, options);
  }

  async delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): Promise<void> {
    this.#open().writer.delete(resource, id, options);
  }

  async get(resource: ResourceModel, id: DocumentId): Promise<StoredDocument | undefined> {
    const row = this.#open().catalog.tableOf(resource).read.get(id);
    return row && toStoredDocument(row);
  }

  async list(resource: ResourceModel, query: ListQuery): Promise<ListResult> {
    const { db, catalog, listQueries } = this.#open();
    let queries = listQueries.get(resource);
    if (!queries) {
      queries = new ListQueries(db, catalog.tableOf(resource));
      listQueries.set(resource, queries);
    }
    return queries.list(query);
  }

  async seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): Promise<number> {
    return this.#open().writer.seedDescriptors(resource, values);
  }

  async createClient(client: ApiClient): Promise<void> {
    this.#open().admin.createClient(client);
  }

  async findClient(key: string): Promise<ApiClient | undefined> {
    return this.#open().admin.findClient(key);
  }

  async listClients(): Promise<readonly ApiClient[]> {
    return this.#open().admin.listClients();
  }

  async saveAccessToken(token: AccessTokenRecord): Promise<void> {
    this.#open().admin.saveAccessToken(token);
  }

  async findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined> {
    return this.#open().admin.findAccessToken(tokenHash, now);
  }

  #open(): OpenState {
    if (!this.#state) throw new Error('The store is not open');
    return this.#state;
  }
}
