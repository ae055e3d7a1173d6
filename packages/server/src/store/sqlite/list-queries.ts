// GET-many and partitions for one resource over SQLite: the relational list SQL, one set of prepared statements per
// shape of selection (combination of fields, ranges and access signature), kept in the reader's one bounded cache;
// pages read as the store's remembered positions say (offset-pages.ts).
import type Database from 'better-sqlite3';
import type { AccessFilter, ListQuery, ListResult, PartitionQuery } from '../store.js';
import { accessParametersOf, type AccessParameters, type AccessSql } from '../relational/access-sql.js';
import {
  ListSql,
  listParametersOf,
  type ListParameters,
  type ListShape,
  type ListStatementsSql,
  type PageRow,
  type Selection,
} from '../relational/list-sql.js';
import { LruCache } from '../relational/lru-cache.js';
import type { OffsetPages, PageStep } from '../relational/offset-pages.js';
import type { ResourceTableRef } from '../relational/resource-tables.js';
import type { PageForm } from '../relational/scope-breadth.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import type { SqlValue } from '../relational/table-layout.js';
import { sqliteDialect } from './sqlite-dialect.js';

type NamedBindings = AccessParameters & ListParameters & PageStep['named'];
type Bindings = (SqlValue | NamedBindings)[];

/**
 * Each statement is prepared on first use: most selections are read once, at offset 0 and without a count, and a
 * statement's native memory goes back only when the garbage collector finalizes it.
 */
export interface ListPlan {
  readonly sql: ListStatementsSql;
  select?: Database.Statement<Bindings, PageRow>;
  seek?: Database.Statement<Bindings, PageRow>;
  probe?: Database.Statement<Bindings, number>;
  scopeSelect?: Database.Statement<Bindings, PageRow>;
  count?: Database.Statement<Bindings, number>;
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
    /** How pages of a list with this access are read (scope-breadth.ts). */
    private readonly pageFormOf: (access: AccessFilter | undefined) => PageForm,
  ) {
    this.#sql = new ListSql(table, access, sqliteDialect);
  }

  list(query: ListQuery): ListResult {
    const items = query.limit > 0 ? this.#page(query).map(toStoredDocument) : [];
    if (!query.totalCount) return { items };
    const { plan, values } = this.#planFor(this.#sql.shapeOf(query), query);
    plan.count ??= this.db.prepare<Bindings, number>(plan.sql.count).pluck();
    return { items, totalCount: plan.count.get(...values) ?? 0 };
  }

  partitionStarts(query: PartitionQuery): number[] {
    const { plan, values } = this.#planFor(this.#sql.shapeOf(query), query);
    plan.partitions ??= this.db.prepare<Bindings, number>(plan.sql.partitions).pluck();
    return plan.partitions.all(...values, query.count, query.count, query.minimumSize);
  }

  #page(query: ListQuery): PageRow[] {
    let step: PageStep | undefined = this.pages.first(this.#sql, query, this.pageFormOf(query.access));
    let rows: PageRow[] = [];
    while (step !== undefined) {
      const { plan, values } = this.#planFor(step.shape, query, step.named);
      const statement = (plan[step.statement] ??= this.db.prepare<Bindings, PageRow>(plan.sql[step.statement]));
      rows = statement.all(...values, ...step.bindings);
      if (this.pages.probesEnd(step, rows) && this.#pastTheEnd(step, query)) break;
      step = this.pages.next(this.#sql, query, step, rows);
    }
    return rows;
  }

  #pastTheEnd(step: PageStep, query: ListQuery): boolean {
    const { plan, named } = this.#planFor(step.shape, query, step.named);
    plan.probe ??= this.db.prepare<Bindings, number>(plan.sql.probe).pluck();
    return plan.probe.get(named) !== undefined;
  }

  #planFor(
    shape: ListShape,
    selection: Selection,
    seek: PageStep['named'] = {},
  ): { plan: ListPlan; values: Bindings; named: NamedBindings } {
    const plan = this.plans.get(`${this.table.resourceId}|${shape.key}`, () => ({ sql: shape.statements() }));
    // Named parameters bind in any position; unused ones are ignored.
    const named = {
      ...accessParametersOf(selection.access, sqliteDialect),
      ...listParametersOf(selection, sqliteDialect),
      ...seek,
    };
    const values: Bindings = [...shape.values, named];
    return { plan, values, named };
  }
}
