// GET-many for one resource: equality filters compiled from the model's query fields (typed columns where the layout
// has them, JSON paths otherwise), one prepared statement pair per combination of fields, ordered by doc_id.
import type Database from 'better-sqlite3';
import type { JsonPath } from '../../model/index.js';
import type { ListQuery, ListResult, QueryFilter } from '../store.js';
import type { ReadRow, ResourceTable } from './resource-table.js';
import { toStoredDocument } from './stored-documents.js';
import { foldCase, type SqlValue } from './table-layout.js';

interface FieldPredicate {
  readonly name: string;
  readonly sql: string;
  readonly bind: (value: QueryFilter['value']) => SqlValue;
  /** Filters on the API id, which lives in `document`. */
  readonly onDocument: boolean;
}

interface ListPlan {
  readonly select: Database.Statement<SqlValue[], ReadRow>;
  readonly count: Database.Statement<SqlValue[], number>;
}

const ID_PATH = '$.id';
const SIMPLE_PATH = /^\$(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

function bindScalar(value: QueryFilter['value']): SqlValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function bindFolded(value: QueryFilter['value']): SqlValue {
  return typeof value === 'string' ? foldCase(value) : bindScalar(value);
}

export class ListQueries {
  readonly #fields = new Map<string, FieldPredicate>();
  readonly #plans = new Map<string, ListPlan>();
  readonly #from: string;
  readonly #scope: string[];

  constructor(
    private readonly db: Database.Database,
    private readonly table: ResourceTable,
  ) {
    const { layout, resourceId } = table;
    this.#from = `${layout.table} r`;
    this.#scope = layout.shared ? [`r.resource_id = ${resourceId}`] : [];
    for (const [name, paths] of Object.entries(layout.resource.queryFields))
      this.#fields.set(name.toLowerCase(), this.#compileField(name, paths));
  }

  list(query: ListQuery): ListResult {
    const { plan, values } = this.#planFor(query.filters);
    const items = query.limit > 0 ? plan.select.all(...values, query.limit, query.offset).map(toStoredDocument) : [];
    if (!query.totalCount) return { items };
    return { items, totalCount: plan.count.get(...values) ?? 0 };
  }

  #planFor(filters: readonly QueryFilter[]): { plan: ListPlan; values: SqlValue[] } {
    const matched = filters
      .map((filter) => {
        const field = this.#fields.get(filter.field.toLowerCase());
        if (!field) throw new Error(`${this.table.layout.resource.resourceName} has no query field '${filter.field}'`);
        return { field, value: filter.value };
      })
      .sort((a, b) => (a.field.name < b.field.name ? -1 : a.field.name > b.field.name ? 1 : 0));
    const key = matched.map(({ field }) => field.name).join(',');
    let plan = this.#plans.get(key);
    if (!plan) {
      plan = this.#prepare(matched.map(({ field }) => field));
      this.#plans.set(key, plan);
    }
    return { plan, values: matched.map(({ field, value }) => field.bind(value)) };
  }

  #prepare(fields: readonly FieldPredicate[]): ListPlan {
    const conditions = [...this.#scope, ...fields.map((field) => field.sql)];
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    const joinDocument = ' JOIN document d ON d.doc_id = r.doc_id';
    const countJoin = fields.some((field) => field.onDocument) ? joinDocument : '';
    return {
      select: this.db.prepare<SqlValue[], ReadRow>(
        `SELECT d.uuid, r.body, r.change_version, r.last_modified FROM ${this.#from}${joinDocument}${where} ` +
          'ORDER BY r.doc_id LIMIT ? OFFSET ?',
      ),
      count: this.db.prepare<SqlValue[], number>(`SELECT count(*) FROM ${this.#from}${countJoin}${where}`).pluck(),
    };
  }

  /**
   * Several paths mean a unified key: the values are equal wherever present, so an always-present identity column
   * decides alone, and otherwise the first present value does.
   */
  #compileField(name: string, paths: readonly JsonPath[]): FieldPredicate {
    if (paths.length === 1 && paths[0] === ID_PATH)
      return { name, sql: 'd.uuid = ?', bind: bindScalar, onDocument: true };
    const { layout } = this.table;
    const descriptorPaths = new Set(layout.resource.descriptors.map((use) => use.path));
    const isDescriptor = paths.some((path) => descriptorPaths.has(path));
    const columns = paths.map((path) => layout.columns.find((column) => column.path === path));
    const identityColumn = columns.find((column) => column?.notNull);
    const expressions = identityColumn
      ? [`r.${identityColumn.name}`]
      : paths.map((path, index) => {
          const column = columns[index];
          if (column) return `r.${column.name}`;
          if (!SIMPLE_PATH.test(path)) throw new Error(`Query field ${name} has an unsupported path ${path}`);
          const extracted = `json_extract(r.body, '${path}')`;
          // Typed descriptor columns are stored folded already.
          return isDescriptor ? `casefold(${extracted})` : extracted;
        });
    const expression = expressions.length === 1 ? expressions[0]! : `COALESCE(${expressions.join(', ')})`;
    return { name, sql: `${expression} = ?`, bind: isDescriptor ? bindFolded : bindScalar, onDocument: false };
  }
}
