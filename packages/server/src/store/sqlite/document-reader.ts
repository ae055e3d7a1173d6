// The read operations over one connection: by id, lists, partitions, change queries and the newest change version.
// The store reads the live data through one; every snapshot has its own over a connection pinned to a moment.
import type Database from 'better-sqlite3';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type {
  AccessFilter,
  AuthorizedDocument,
  DeletedDocument,
  DocumentWrite,
  SubjectProbe,
  SubjectRelation,
  KeyChange,
  ListQuery,
  ListResult,
  PartitionQuery,
  StoredDocument,
  TrackedChangeList,
  TrackedChangeQuery,
} from '../store.js';
import { AccessSql } from '../relational/access-sql.js';
import { AuthorizedReads } from './authorized-reads.js';
import { ListQueries, type ListPlan } from './list-queries.js';
import { LruCache } from '../relational/lru-cache.js';
import type { OffsetPages } from '../relational/offset-pages.js';
import { isRelationshipScoped, narrowScopeSql, type PageForm } from '../relational/scope-breadth.js';
import { NEWEST_CHANGE_VERSION_SQL, OWNERSHIP_TOKEN_SQL } from '../relational/document-read-sql.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import type { TableCatalog } from './table-catalog.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { TrackedChangeQueries } from './tracked-change-queries.js';

export class DocumentReader {
  readonly #listQueries = new Map<ResourceModel, ListQueries>();
  readonly #listPlans = new LruCache<ListPlan>();
  readonly #authorizedReads = new Map<ResourceModel, AuthorizedReads>();
  readonly #changeQueries = new Map<ResourceModel, TrackedChangeQueries>();
  readonly #newestChangeVersion: Database.Statement<[], number>;
  readonly #access: AccessSql;
  readonly #ownershipToken: Database.Statement<[string], number>;
  readonly #narrowScope: Database.Statement<[{ claims: unknown }], number>;
  readonly #relationProbes = new Map<
    SubjectRelation,
    Database.Statement<[{ claims: unknown; value: unknown }], number>
  >();

  constructor(
    private readonly db: Database.Database,
    private readonly catalog: TableCatalog,
    registry: ModelRegistry,
    /** The store's, shared by its live and snapshot readers: each seek checks its position in its own snapshot. */
    private readonly pages: OffsetPages,
  ) {
    this.#access = new AccessSql(catalog, registry, sqliteDialect);
    this.#narrowScope = db.prepare<[{ claims: unknown }], number>(narrowScopeSql(this.#access, sqliteDialect)).pluck();
    this.#ownershipToken = db.prepare<[string], number>(OWNERSHIP_TOKEN_SQL).pluck();
    this.#newestChangeVersion = db.prepare<[], number>(NEWEST_CHANGE_VERSION_SQL).pluck();
  }

  get(resource: ResourceModel, id: string): StoredDocument | undefined {
    const row = this.catalog.tableOf(resource).read.get(id);
    return row && toStoredDocument(row);
  }

  getAuthorized(resource: ResourceModel, id: string, access: AccessFilter): AuthorizedDocument | undefined {
    let reads = this.#authorizedReads.get(resource);
    if (!reads) {
      reads = new AuthorizedReads(this.db, this.catalog.tableOf(resource), this.#access);
      this.#authorizedReads.set(resource, reads);
    }
    return reads.get(id, access);
  }

  findByIdentity(write: DocumentWrite): StoredDocument | undefined {
    const table = this.catalog.tableOf(write.resource);
    const row = table.findByKey.get(table.layout.identityKeyOf(write));
    return row && toStoredDocument(row);
  }

  ownershipTokenOf(id: string): number | undefined {
    return this.#ownershipToken.get(id);
  }

  relatedSubjects(educationOrganizationIds: readonly number[], probes: readonly SubjectProbe[]): boolean[] {
    const claims = sqliteDialect.bindList(educationOrganizationIds);
    return probes.map(({ relation, value }) => this.#relationProbeOf(relation).get({ claims, value }) === 1);
  }

  #relationProbeOf(relation: SubjectRelation) {
    let probe = this.#relationProbes.get(relation);
    if (probe === undefined) {
      probe = this.db
        .prepare<[{ claims: unknown; value: unknown }], number>(
          `SELECT ${this.#access.relatedOf(relation, '@value', false, 'probe')}`,
        )
        .pluck();
      this.#relationProbes.set(relation, probe);
    }
    return probe;
  }

  list(resource: ResourceModel, query: ListQuery): ListResult {
    return this.#listQueriesOf(resource).list(query);
  }

  partitionStarts(resource: ResourceModel, query: PartitionQuery): number[] {
    return this.#listQueriesOf(resource).partitionStarts(query);
  }

  newestChangeVersion(): number {
    return this.#newestChangeVersion.get() ?? 0;
  }

  deletes(resource: ResourceModel, query: TrackedChangeQuery): TrackedChangeList<DeletedDocument> {
    return this.#changeQueriesOf(resource).deletes(query);
  }

  keyChanges(resource: ResourceModel, query: TrackedChangeQuery): TrackedChangeList<KeyChange> {
    return this.#changeQueriesOf(resource).keyChanges(query);
  }

  #listQueriesOf(resource: ResourceModel): ListQueries {
    let queries = this.#listQueries.get(resource);
    if (!queries) {
      const table = this.catalog.tableOf(resource);
      const pageFormOf = (access: AccessFilter | undefined) => this.#pageFormOf(access);
      queries = new ListQueries(this.db, table, this.#access, this.#listPlans, this.pages, pageFormOf);
      this.#listQueries.set(resource, queries);
    }
    return queries;
  }

  #pageFormOf(access: AccessFilter | undefined): PageForm {
    if (!isRelationshipScoped(access)) return 'scan';
    const { breadths } = this.pages;
    const claims = sqliteDialect.bindList(access.educationOrganizationIds);
    return breadths.find(access) ?? breadths.remember(access, this.#narrowScope.get({ claims }) ?? 0);
  }

  #changeQueriesOf(resource: ResourceModel): TrackedChangeQueries {
    let queries = this.#changeQueries.get(resource);
    if (!queries) {
      queries = new TrackedChangeQueries(this.db, this.catalog.tableOf(resource), this.#access);
      this.#changeQueries.set(resource, queries);
    }
    return queries;
  }
}
