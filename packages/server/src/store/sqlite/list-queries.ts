// GET-many and partitions for one resource over SQLite: the relational list SQL, one set of prepared statements per
// shape of selection (combination of fields, ranges and access signature), kept in the reader's one bounded cache.
import type Database from 'better-sqlite3';
import type { ListQuery, ListResult, PartitionQuery } from '../store.js';
import { accessParametersOf, type AccessParameters, type AccessSql } from '../relational/access-sql.js';
import { ListSql, listParametersOf, type Selection } from '../relational/list-sql.js';
import { LruCache } from '../relational/lru-cache.js';
import type { ResourceTableRef } from '../relational/resource-tables.js';
import type { ReadRow } from '../relational/stored-documents.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import type { SqlValue } from '../relational/table-layout.js';
import { sqliteDialect } from './sqlite-dialect.js';

type Bindings = (SqlValue | (AccessParameters & { readonly ids: unknown }))[];

export interface ListPlan {
  readonly select: Database.Statement<Bindings, ReadRow>;
  readonly count: Database.Statement<Bindings, number>;
  readonly partitionsSql: string;
  /** Prepared on first use: few queries ask for partitions. */
  partitions?: Database.Statement<Bindings, number>;
}

export class ListQueries {
  readonly #sql: ListSql;
  constructor(
    private readonly db: Database.Database,
    private readonly table: ResourceTableRef,
    access: AccessSql,
    /** Shared by every resource of one connection, so that the bound holds for the connection. */
    private readonly plans: LruCache<ListPlan>,
  ) {
    this.#sql = new ListSql(table, access, sqliteDialect);
  }

  list(query: ListQuery): ListResult {
    const { plan, values } = this.#planFor(query);
    const items = query.limit > 0 ? plan.select.all(...values, query.limit, query.offset).map(toStoredDocument) : [];
    if (!query.totalCount) return { items };
    return { items, totalCount: plan.count.get(...values) ?? 0 };
  }

  partitionStarts(query: PartitionQuery): number[] {
    const { plan, values } = this.#planFor(query);
    plan.partitions ??= this.db.prepare<Bindings, number>(plan.partitionsSql).pluck();
    return plan.partitions.all(...values, query.count, query.count, query.minimumSize);
  }

  #planFor(selection: Selection): { plan: ListPlan; values: Bindings } {
    const shape = this.#sql.shapeOf(selection);
    const plan = this.plans.get(`${this.table.resourceId}|${shape.key}`, () => {
      const sql = shape.statements();
      return {
        select: this.db.prepare<Bindings, ReadRow>(sql.select),
        count: this.db.prepare<Bindings, number>(sql.count).pluck(),
        partitionsSql: sql.partitions,
      };
    });
    // Named parameters bind in any position; unused ones are ignored.
    const named = {
      ...accessParametersOf(selection.access, sqliteDialect),
      ...listParametersOf(selection, sqliteDialect),
    };
    const values: Bindings = [...shape.values, named];
    return { plan, values };
  }
}
