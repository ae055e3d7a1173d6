// `/deletes` and `/keyChanges` of one resource over SQLite: the relational tracked-change SQL, prepared once per
// shape of authorization.
import type Database from 'better-sqlite3';
import type { AccessFilter, DeletedDocument, KeyChange, TrackedChangeList, TrackedChangeQuery } from '../store.js';
import {
  accessParametersOf,
  accessSignatureOf,
  type AccessParameters,
  type AccessSql,
} from '../relational/access-sql.js';
import { ACCESS_SIGNATURES_PER_RESOURCE, LruCache } from '../relational/lru-cache.js';
import type { ResourceTableRef } from '../relational/resource-tables.js';
import {
  toDeletedDocument,
  toKeyChange,
  trackedChangeSqlOf,
  windowOf,
  type DeletionRow,
  type KeyChangeRow,
  type PagedSql,
} from '../relational/tracked-change-sql.js';
import { sqliteDialect } from './sqlite-dialect.js';

type Window = [number, number, AccessParameters];
type Page = [number, number, AccessParameters, number, number];

interface PagedStatements<Row> {
  readonly page: Database.Statement<Page, Row>;
  readonly count: Database.Statement<Window, number>;
}

interface FeedStatements {
  readonly deletes: PagedStatements<DeletionRow>;
  readonly keyChanges: PagedStatements<KeyChangeRow>;
}

function listed<Row, Item>(
  statements: PagedStatements<Row>,
  query: TrackedChangeQuery,
  toItem: (row: Row) => Item,
): TrackedChangeList<Item> {
  const window: Window = [...windowOf(query.changeVersions), accessParametersOf(query.access, sqliteDialect)];
  const items = query.limit > 0 ? statements.page.all(...window, query.limit, query.offset).map(toItem) : [];
  if (!query.totalCount) return { items };
  return { items, totalCount: statements.count.get(...window) ?? 0 };
}

export class TrackedChangeQueries {
  /** By access signature: one set of statements per shape of authorization. */
  readonly #statements = new LruCache<FeedStatements>(ACCESS_SIGNATURES_PER_RESOURCE);

  constructor(
    private readonly db: Database.Database,
    private readonly table: ResourceTableRef,
    private readonly access: AccessSql,
  ) {}

  deletes(query: TrackedChangeQuery): TrackedChangeList<DeletedDocument> {
    return listed(this.#statementsFor(query.access).deletes, query, toDeletedDocument);
  }

  keyChanges(query: TrackedChangeQuery): TrackedChangeList<KeyChange> {
    return listed(this.#statementsFor(query.access).keyChanges, query, toKeyChange);
  }

  #statementsFor(filter: AccessFilter | undefined): FeedStatements {
    return this.#statements.get(accessSignatureOf(filter), () => {
      const sql = trackedChangeSqlOf(this.table, this.access, sqliteDialect, filter);
      return { deletes: this.#prepare(sql.deletes), keyChanges: this.#prepare(sql.keyChanges) };
    });
  }

  #prepare<Row>(sql: PagedSql): PagedStatements<Row> {
    return {
      page: this.db.prepare<Page, Row>(sql.page),
      count: this.db.prepare<Window, number>(sql.count).pluck(),
    };
  }
}
