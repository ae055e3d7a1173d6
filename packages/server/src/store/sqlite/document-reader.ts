// The read operations over one connection: by id, lists, partitions, change queries and the newest change version.
// The store reads the live data through one; every snapshot has its own over a connection pinned to a moment.
import type Database from 'better-sqlite3';
import type { ResourceModel } from '../../model/index.js';
import type {
  DeletedDocument,
  KeyChange,
  ListQuery,
  ListResult,
  PartitionQuery,
  StoredDocument,
  TrackedChangeList,
  TrackedChangeQuery,
} from '../store.js';
import { ListQueries } from './list-queries.js';
import { CHANGE_VERSION_KEY } from './schema.js';
import { toStoredDocument } from './stored-documents.js';
import type { TableCatalog } from './table-catalog.js';
import { TrackedChangeQueries } from './tracked-change-queries.js';

export class DocumentReader {
  readonly #listQueries = new Map<ResourceModel, ListQueries>();
  readonly #changeQueries = new Map<ResourceModel, TrackedChangeQueries>();
  readonly #newestChangeVersion: Database.Statement<[], number>;

  constructor(
    private readonly db: Database.Database,
    private readonly catalog: TableCatalog,
  ) {
    this.#newestChangeVersion = db
      .prepare<[], number>(`SELECT value FROM meta WHERE key = '${CHANGE_VERSION_KEY}'`)
      .pluck();
  }

  get(resource: ResourceModel, id: string): StoredDocument | undefined {
    const row = this.catalog.tableOf(resource).read.get(id);
    return row && toStoredDocument(row);
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
      queries = new ListQueries(this.db, this.catalog.tableOf(resource));
      this.#listQueries.set(resource, queries);
    }
    return queries;
  }

  #changeQueriesOf(resource: ResourceModel): TrackedChangeQueries {
    let queries = this.#changeQueries.get(resource);
    if (!queries) {
      queries = new TrackedChangeQueries(this.db, this.catalog.tableOf(resource));
      this.#changeQueries.set(resource, queries);
    }
    return queries;
  }
}
