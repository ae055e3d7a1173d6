// GET-many and partitions for one resource: equality filters compiled from the model's query fields (typed columns
// where the layout has them, JSON paths otherwise), change-version and doc-id ranges, one set of prepared statements
// per combination of fields and ranges, ordered by doc_id.
import type Database from 'better-sqlite3';
import type { JsonPath } from '../../model/index.js';
import type {
  AccessFilter,
  ChangeVersionRange,
  DocIdRange,
  ListQuery,
  ListResult,
  PartitionQuery,
  QueryFilter,
} from '../store.js';
import {
  accessParametersOf,
  accessSignatureOf,
  subjectColumnsOf,
  type AccessParameters,
  type AccessSql,
} from './access-sql.js';
import type { ReadRow } from '../relational/stored-documents.js';
import type { ResourceTable } from './resource-table.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import { foldCase, type SqlValue } from '../relational/table-layout.js';

type Bindings = (SqlValue | AccessParameters)[];

interface FieldPredicate {
  readonly name: string;
  readonly sql: string;
  readonly bind: (value: QueryFilter['value']) => SqlValue;
  /** Filters on the API id, which lives in `document`. */
  readonly onDocument: boolean;
}

interface ListPlan {
  readonly select: Database.Statement<Bindings, ReadRow>;
  readonly count: Database.Statement<Bindings, number>;
  /** Prepared on first use: few queries ask for partitions. */
  partitions?: Database.Statement<Bindings, number>;
  readonly where: string;
  /** The join to `document` the conditions need (only an `id` filter does). */
  readonly documentJoin: string;
}

/** What a query selects: its filters and ranges, whichever are given. */
interface Selection {
  readonly filters: readonly QueryFilter[];
  readonly changeVersions?: ChangeVersionRange;
  readonly docIds?: DocIdRange;
  readonly access?: AccessFilter;
}

interface RangePredicate {
  readonly sql: string;
  readonly value: number;
}

/** The range bounds a selection gives, as predicates in a fixed order (part of the plan key). */
function rangePredicatesOf(selection: Selection): RangePredicate[] {
  const { changeVersions, docIds } = selection;
  const predicates: RangePredicate[] = [];
  if (changeVersions?.min !== undefined) predicates.push({ sql: 'r.change_version >= ?', value: changeVersions.min });
  if (changeVersions?.max !== undefined) predicates.push({ sql: 'r.change_version <= ?', value: changeVersions.max });
  if (docIds) predicates.push({ sql: 'r.doc_id >= ?', value: docIds.min }, { sql: 'r.doc_id <= ?', value: docIds.max });
  return predicates;
}

const ID_PATH = '$.id';
const DOCUMENT_JOIN = ' JOIN document d ON d.doc_id = r.doc_id';
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
    private readonly access: AccessSql,
  ) {
    const { layout, resourceId } = table;
    this.#from = `${layout.table} r`;
    this.#scope = layout.shared ? [`r.resource_id = ${resourceId}`] : [];
    for (const [name, paths] of Object.entries(layout.resource.queryFields))
      this.#fields.set(name.toLowerCase(), this.#compileField(name, paths));
  }

  list(query: ListQuery): ListResult {
    const { plan, values } = this.#planFor(query);
    const items = query.limit > 0 ? plan.select.all(...values, query.limit, query.offset).map(toStoredDocument) : [];
    if (!query.totalCount) return { items };
    return { items, totalCount: plan.count.get(...values) ?? 0 };
  }

  /**
   * One statement numbers the matching rows in doc_id order, counts them, and keeps every partition's first row: the
   * partition size is `max(ceil(count / partitions), minimum size)`.
   */
  partitionStarts(query: PartitionQuery): number[] {
    const { plan, values } = this.#planFor(query);
    plan.partitions ??= this.db
      .prepare<Bindings, number>(
        'SELECT doc_id FROM (SELECT r.doc_id, row_number() OVER (ORDER BY r.doc_id) AS position, ' +
          `count(*) OVER () AS total FROM ${this.#from}${plan.documentJoin}${plan.where}) ` +
          'WHERE (position - 1) % max((total + ? - 1) / ?, ?) = 0 ORDER BY doc_id',
      )
      .pluck();
    return plan.partitions.all(...values, query.count, query.count, query.minimumSize);
  }

  #planFor(selection: Selection): { plan: ListPlan; values: Bindings } {
    const ranges = rangePredicatesOf(selection);
    const matched = selection.filters
      .map((filter) => {
        const field = this.#fields.get(filter.field.toLowerCase());
        if (!field) throw new Error(`${this.table.layout.resource.resourceName} has no query field '${filter.field}'`);
        return { field, value: filter.value };
      })
      .sort((a, b) => (a.field.name < b.field.name ? -1 : a.field.name > b.field.name ? 1 : 0));
    const fields = matched.map(({ field }) => field);
    const conditions = [...fields.map((field) => field.sql), ...ranges.map((range) => range.sql)];
    const { access } = selection;
    if (access !== undefined)
      conditions.push(this.access.predicateOf(access, subjectColumnsOf(this.table.layout), false));
    const key = [
      ...fields.map((field) => field.name),
      ...ranges.map((range) => range.sql),
      accessSignatureOf(access),
    ].join(',');
    let plan = this.#plans.get(key);
    if (!plan) {
      plan = this.#prepare(
        conditions,
        fields.some((field) => field.onDocument),
      );
      this.#plans.set(key, plan);
    }
    const values: Bindings = [
      ...matched.map(({ field, value }) => field.bind(value)),
      ...ranges.map((range) => range.value),
    ];
    // Named parameters bind in any position; unused ones are ignored.
    values.push(accessParametersOf(access));
    return { plan, values };
  }

  #prepare(predicates: readonly string[], filtersOnDocument: boolean): ListPlan {
    const conditions = [...this.#scope, ...predicates];
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    const countJoin = filtersOnDocument ? DOCUMENT_JOIN : '';
    return {
      select: this.db.prepare<Bindings, ReadRow>(
        `SELECT r.doc_id, d.uuid, r.body, r.change_version, r.last_modified FROM ${this.#from}${DOCUMENT_JOIN}${where} ` +
          'ORDER BY r.doc_id LIMIT ? OFFSET ?',
      ),
      count: this.db.prepare<Bindings, number>(`SELECT count(*) FROM ${this.#from}${countJoin}${where}`).pluck(),
      where,
      documentJoin: countJoin,
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
