// GET-many and partitions for one resource over SQLite: the relational list SQL, one set of prepared statements per
// shape of selection (combination of fields, ranges and access signature), kept in the reader's one bounded cache;
// pages read as the store's remembered positions say (offset-pages.ts).
import type Database from 'better-sqlite3';
import type { ListQuery, ListResult, PartitionQuery } from '../store.js';
import { accessParametersOf, type AccessParameters, type AccessSql } from '../relational/access-sql.js';
import { ListSql, listParametersOf, type ListShape, type PageRow, type Selection } from '../relational/list-sql.js';
import { LruCache } from '../relational/lru-cache.js';
import type { OffsetPages, PageStep } from '../relational/offset-pages.js';
import type { ResourceTableRef } from '../relational/resource-tables.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import type { SqlValue } from '../relational/table-layout.js';
import { sqliteDialect } from './sqlite-dialect.js';

type Bindings = (SqlValue | (AccessParameters & { readonly ids: unknown } & PageStep['named']))[];

export interface ListPlan {
  readonly select: Database.Statement<Bindings, PageRow>;
  readonly seek: Database.Statement<Bindings, PageRow>;
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
    private readonly pages: OffsetPages,
  ) {
    this.#sql = new ListSql(table, access, sqliteDialect);
  }

  list(query: ListQuery): ListResult {
    const items = query.limit > 0 ? this.#page(query).map(toStoredDocument) : [];
    if (!query.totalCount) return { items };
    const { plan, values } = this.#planFor(this.#sql.shapeOf(query), query);
    return { items, totalCount: plan.count.get(...values) ?? 0 };
  }

  partitionStarts(query: PartitionQuery): number[] {
    const { plan, values } = this.#planFor(this.#sql.shapeOf(query), query);
    plan.partitions ??= this.db.prepare<Bindings, number>(plan.partitionsSql).pluck();
    return plan.partitions.all(...values, query.count, query.count, query.minimumSize);
  }

  #page(query: ListQuery): PageRow[] {
    let step: PageStep | undefined = this.pages.first(this.#sql, query);
    let rows: PageRow[] = [];
    while (step !== undefined) {
      const { plan, values } = this.#planFor(step.shape, query, step.named);
      rows = plan[step.statement].all(...values, ...step.bindings);
      step = this.pages.next(this.#sql, query, step, rows);
    }
    return rows;
  }

  #planFor(shape: ListShape, selection: Selection, seek: PageStep['named'] = {}): { plan: ListPlan; values: Bindings } {
    const plan = this.plans.get(`${this.table.resourceId}|${shape.key}`, () => {
      const sql = shape.statements();
      return {
        select: this.db.prepare<Bindings, PageRow>(sql.select),
        seek: this.db.prepare<Bindings, PageRow>(sql.seek),
        count: this.db.prepare<Bindings, number>(sql.count).pluck(),
        partitionsSql: sql.partitions,
      };
    });
    // Named parameters bind in any position; unused ones are ignored.
    const named = {
      ...accessParametersOf(selection.access, sqliteDialect),
      ...listParametersOf(selection, sqliteDialect),
      ...seek,
    };
    const values: Bindings = [...shape.values, named];
    return { plan, values };
  }
}
