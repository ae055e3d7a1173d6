// The SQL of GET-many and partitions for one resource: equality filters compiled from the model's query fields (typed
// columns where the layout has them, JSON paths otherwise), change-version and doc-id ranges and the access predicate,
// ordered by doc_id. A selection's shape key names its statements, so a store prepares each shape once. A page is read
// by offset, or by seeking past a document remembered at an earlier position while the watermark holds (offset-pages.ts).
import type { JsonPath } from '../../model/index.js';
import type { AccessFilter, ChangeVersionRange, DocIdRange, QueryFilter } from '../store.js';
import { accessSignatureOf, subjectColumnsOf, type AccessSql, type MembershipForm } from './access-sql.js';
import type { ResourceTableRef } from './resource-tables.js';
import { DOCUMENT_TABLE } from './schema-plan.js';
import { listWatermarkSql } from './list-watermark.js';
import { queryFieldSql } from './query-field-sql.js';
import type { SqlDialect } from './sql-dialect.js';
import type { ReadRow } from './stored-documents.js';
import { foldCase, ID_PATH, type SqlValue } from './table-layout.js';

/** What a query selects: its filters and ranges, whichever are given. */
export interface Selection {
  readonly filters: readonly QueryFilter[];
  readonly changeVersions?: ChangeVersionRange;
  readonly docIds?: DocIdRange;
  /** Only these documents, by API id (bound as the named list `@ids`, see listParametersOf). */
  readonly documentIds?: readonly string[];
  readonly access?: AccessFilter;
}

/** The named parameters of a selection besides the access predicate's. */
export function listParametersOf(selection: Selection, dialect: SqlDialect): { readonly ids: unknown } {
  return { ids: dialect.bindList(selection.documentIds ?? []) };
}

/**
 * How a change-version window is applied: as a `filter` on each row, or as a `guard` that the window holds every row of
 * the resource (then it filters nothing, and the page is read in doc_id order like a list without a window; when the
 * guard fails the statement returns no rows).
 */
export type WindowForm = 'filter' | 'guard';

/** A page's rows: each also has the selection's watermark (list-watermark.ts) in the page's snapshot. */
export interface PageRow extends ReadRow {
  readonly watermark: number;
}

/** The statements of one shape of selection; each binds the shape's values first, then its own (see each). */
export interface ListStatementsSql {
  /** Then limit and offset. */
  readonly select: string;
  /**
   * The rows after a doc_id, while the watermark is a given one (else none): then the doc_id twice, the watermark,
   * limit and offset.
   */
  readonly seek: string;
  readonly count: string;
  /** Then the partition count, again, and the minimum partition size. */
  readonly partitions: string;
}

export interface ListShape {
  /** Selections with equal keys share their statements. */
  readonly key: string;
  /**
   * The key with the resource and every bound value: selections with equal selection keys return the same rows from
   * the same state. Undefined for a list of API ids, which is read whole anyway.
   */
  readonly selectionKey: string | undefined;
  /** The filter and range values, positional; the access predicate binds its named parameters. */
  readonly values: SqlValue[];
  readonly statements: () => ListStatementsSql;
}

interface FieldPredicate {
  readonly name: string;
  readonly sql: string;
  readonly bind: (value: QueryFilter['value']) => SqlValue;
  /** Filters on the API id, which lives in `document`. */
  readonly onDocument: boolean;
}

interface RangePredicate {
  readonly sql: string;
  readonly value: number;
}

/** The range bounds a selection gives, as predicates in a fixed order (part of the shape key). */
function rangePredicatesOf(selection: Selection, windowBounds: { min: string; max: string }): RangePredicate[] {
  const { changeVersions, docIds } = selection;
  const predicates: RangePredicate[] = [];
  if (changeVersions?.min !== undefined) predicates.push({ sql: windowBounds.min, value: changeVersions.min });
  if (changeVersions?.max !== undefined) predicates.push({ sql: windowBounds.max, value: changeVersions.max });
  if (docIds) predicates.push({ sql: 'r.doc_id >= ?', value: docIds.min }, { sql: 'r.doc_id <= ?', value: docIds.max });
  return predicates;
}

const WINDOW_FILTER = { min: 'r.change_version >= ?', max: 'r.change_version <= ?' };

const DOCUMENT_JOIN = ` JOIN ${DOCUMENT_TABLE} d ON d.doc_id = r.doc_id`;

function bindScalar(value: QueryFilter['value']): SqlValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

function bindFolded(value: QueryFilter['value']): SqlValue {
  return typeof value === 'string' ? foldCase(value) : bindScalar(value);
}

function byName(a: { field: FieldPredicate }, b: { field: FieldPredicate }): number {
  return a.field.name < b.field.name ? -1 : a.field.name > b.field.name ? 1 : 0;
}

export class ListSql {
  readonly #fields = new Map<string, FieldPredicate>();
  readonly #from: string;
  readonly #scope: string[];
  readonly #windowGuard: { min: string; max: string };

  constructor(
    private readonly table: ResourceTableRef,
    private readonly access: AccessSql,
    private readonly dialect: SqlDialect,
  ) {
    const { layout, resourceId } = table;
    this.#from = `${layout.table} r`;
    this.#scope = layout.shared ? [`r.resource_id = ${resourceId}`] : [];
    for (const [name, paths] of Object.entries(layout.resource.queryFields))
      this.#fields.set(name.toLowerCase(), this.#compileField(name, paths));
    const versions = (aggregate: string) =>
      `(SELECT ${aggregate}(c.change_version) FROM ${layout.table} c${layout.shared ? ` WHERE c.resource_id = ${resourceId}` : ''})`;
    this.#windowGuard = { min: `${versions('min')} >= ?`, max: `${versions('max')} <= ?` };
  }

  shapeOf(selection: Selection, window: WindowForm = 'filter'): ListShape {
    const ranges = rangePredicatesOf(selection, window === 'filter' ? WINDOW_FILTER : this.#windowGuard);
    const matched = selection.filters
      .map((filter) => {
        const field = this.#fields.get(filter.field.toLowerCase());
        if (!field) throw new Error(`${this.table.layout.resource.resourceName} has no query field '${filter.field}'`);
        return { field, value: filter.value };
      })
      .sort(byName);
    const fields = matched.map(({ field }) => field);
    const { access } = selection;
    const byIds = selection.documentIds !== undefined;
    const key = [
      ...fields.map((field) => field.name),
      ...ranges.map((range) => range.sql),
      byIds ? 'ids' : '',
      accessSignatureOf(access),
    ].join(',');
    const values = [...matched.map(({ field, value }) => field.bind(value)), ...ranges.map((range) => range.value)];
    return {
      key,
      // A guarded window filters nothing: such a selection has the same rows as the one without the window.
      selectionKey:
        window === 'guard'
          ? this.shapeOf({ ...selection, changeVersions: undefined }).selectionKey
          : byIds
            ? undefined
            : `${this.table.resourceId}|${key}|${JSON.stringify([values, access ?? null])}`,
      values,
      statements: () => {
        const conditions = [...fields.map((field) => field.sql), ...ranges.map((range) => range.sql)];
        if (byIds) conditions.push(`d.uuid IN (SELECT value FROM ${this.dialect.valueList('ids', 'text', 'ids')})`);
        const accessOf = (form: MembershipForm) =>
          access === undefined
            ? []
            : [this.access.predicateOf(access, subjectColumnsOf(this.table.layout), false, form)];
        return this.#statements(
          { page: [...conditions, ...accessOf('set')], population: [...conditions, ...accessOf('population')] },
          byIds || fields.some((field) => field.onDocument),
          listWatermarkSql(this.table, access, this.dialect),
        );
      },
    };
  }

  /** A page tests the rows it reads (`page`); a count and partitions test every matching row (`population`). */
  #statements(
    predicates: { readonly page: readonly string[]; readonly population: readonly string[] },
    filtersOnDocument: boolean,
    watermark: string,
  ): ListStatementsSql {
    const whereOf = (conditions: readonly string[]) =>
      conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    const where = whereOf([...this.#scope, ...predicates.page]);
    // The bound on d too: PostgreSQL does not carry an inequality across the join, and would merge-join document from
    // its first row.
    const seekWhere = whereOf([...this.#scope, ...predicates.page, 'r.doc_id > ?', 'd.doc_id > ?', `${watermark} = ?`]);
    const page = (conditions: string) =>
      `SELECT r.doc_id, d.uuid, r.body, r.change_version, r.last_modified, ${watermark} AS watermark ` +
      `FROM ${this.#from}${DOCUMENT_JOIN}${conditions} ORDER BY r.doc_id LIMIT ? OFFSET ?`;
    const populationWhere = whereOf([...this.#scope, ...predicates.population]);
    const countJoin = filtersOnDocument ? DOCUMENT_JOIN : '';
    const numbered =
      'SELECT r.doc_id, row_number() OVER (ORDER BY r.doc_id) AS position, count(*) OVER () AS total ' +
      `FROM ${this.#from}${countJoin}${populationWhere}`;
    return {
      select: page(where),
      seek: page(seekWhere),
      count: `SELECT count(*) FROM ${this.#from}${countJoin}${populationWhere}`,
      // Every partition's first row: the partition size is `max(ceil(count / partitions), minimum size)`.
      partitions:
        `SELECT doc_id FROM ${this.dialect.derivedTable(numbered)} ` +
        `WHERE (position - 1) % ${this.dialect.greatest('(total + ? - 1) / ?', '?')} = 0 ORDER BY doc_id`,
    };
  }

  #compileField(name: string, paths: readonly JsonPath[]): FieldPredicate {
    if (paths.length === 1 && paths[0] === ID_PATH)
      return { name, sql: 'd.uuid = ?', bind: bindScalar, onDocument: true };
    const { expression, folded } = queryFieldSql(this.table.layout, name, paths, this.dialect, 'r.');
    return { name, sql: `${expression} = ?`, bind: folded ? bindFolded : bindScalar, onDocument: false };
  }
}
