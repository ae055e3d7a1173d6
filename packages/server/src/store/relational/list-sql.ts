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

/** The named parameters of a selection besides the access predicate's: the API ids and the change-version window. */
export interface ListParameters {
  readonly ids: unknown;
  readonly min_version?: number;
  readonly max_version?: number;
}

export function listParametersOf(selection: Selection, dialect: SqlDialect): ListParameters {
  const { changeVersions } = selection;
  // Only the bounds the statements use: binding unused nulls made SQLite's memory grow with the shapes read.
  return {
    ids: dialect.bindList(selection.documentIds ?? []),
    ...(changeVersions?.min === undefined ? {} : { min_version: changeVersions.min }),
    ...(changeVersions?.max === undefined ? {} : { max_version: changeVersions.max }),
  };
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
  /** The rows after `@after` while the watermark is `@watermark` (else none): then limit and offset. */
  readonly seek: string;
  /**
   * One row while the seek's checks hold (the watermark is `@watermark`, a guarded window holds every row): binds the
   * named parameters only. After an empty seek, it tells a page past the selection's end from a moved position.
   */
  readonly probe: string;
  /** `select` in the scope form (scope-breadth.ts): the page's doc ids from the population, then its rows. */
  readonly scopeSelect: string;
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
  /** The filter and doc-id range values, positional; the window and the access predicate bind named parameters. */
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

/** The window's bounds, named (listParametersOf), so that a check may use them more than once. */
interface WindowBounds {
  readonly min: string;
  readonly max: string;
}

/** A selection's window bounds and doc-id bounds (positional), in a fixed order: part of the shape key. */
function rangePredicatesOf(selection: Selection, bounds: WindowBounds): { window: string[]; docIds: RangePredicate[] } {
  const { changeVersions, docIds } = selection;
  const window: string[] = [];
  if (changeVersions?.min !== undefined) window.push(bounds.min);
  if (changeVersions?.max !== undefined) window.push(bounds.max);
  const docIdRange = docIds
    ? [
        { sql: 'r.doc_id >= ?', value: docIds.min },
        { sql: 'r.doc_id <= ?', value: docIds.max },
      ]
    : [];
  return { window, docIds: docIdRange };
}

const WINDOW_FILTER: WindowBounds = {
  min: 'r.change_version >= @min_version',
  max: 'r.change_version <= @max_version',
};

/** Above every doc id: a lower bound that leaves nothing. */
const NO_DOC_ID = '9223372036854775807';

/**
 * `after` while `checks` hold, else above every doc id: as a lower bound on the doc id, a failed check ends the read at
 * its first index probe (as a condition of its own, SQLite would test it on every row).
 */
function startWhile(checks: readonly string[], after: string): string {
  return checks.length === 0 ? after : `CASE WHEN ${checks.join(' AND ')} THEN ${after} ELSE ${NO_DOC_ID} END`;
}

/** The conditions of a page, apart from the scope, in the order their positional parameters bind. */
interface PageConditions {
  readonly fields: readonly string[];
  readonly window: { readonly form: WindowForm; readonly sql: readonly string[] };
  /** The doc-id range and the list of API ids. */
  readonly rest: readonly string[];
  readonly access: { readonly page: readonly string[]; readonly population: readonly string[] };
}

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
  readonly #windowGuard: WindowBounds;

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
    this.#windowGuard = { min: `${versions('min')} >= @min_version`, max: `${versions('max')} <= @max_version` };
  }

  shapeOf(selection: Selection, window: WindowForm = 'filter'): ListShape {
    const ranges = rangePredicatesOf(selection, window === 'filter' ? WINDOW_FILTER : this.#windowGuard);
    const bounds = [...ranges.window, ...ranges.docIds.map((range) => range.sql)];
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
    const key = [...fields.map((field) => field.name), ...bounds, byIds ? 'ids' : '', accessSignatureOf(access)].join(
      ',',
    );
    const values = [
      ...matched.map(({ field, value }) => field.bind(value)),
      ...ranges.docIds.map((range) => range.value),
    ];
    return {
      key,
      // A guarded window filters nothing: such a selection has the same rows as the one without the window.
      selectionKey:
        window === 'guard'
          ? this.shapeOf({ ...selection, changeVersions: undefined }).selectionKey
          : byIds
            ? undefined
            : `${this.table.resourceId}|${key}|${JSON.stringify([values, selection.changeVersions ?? null, access ?? null])}`,
      values,
      statements: () => {
        const rest = ranges.docIds.map((range) => range.sql);
        if (byIds) rest.push(`d.uuid IN (SELECT value FROM ${this.dialect.valueList('ids', 'text', 'ids')})`);
        const accessOf = (form: MembershipForm) =>
          access === undefined
            ? []
            : [this.access.predicateOf(access, subjectColumnsOf(this.table.layout), false, form)];
        return this.#statements(
          {
            fields: fields.map((field) => field.sql),
            window: { form: window, sql: ranges.window },
            rest,
            access: { page: accessOf('set'), population: accessOf('population') },
          },
          byIds || fields.some((field) => field.onDocument),
          listWatermarkSql(this.table, access, this.dialect),
        );
      },
    };
  }

  /**
   * A page tests the rows it reads (`page`); a count, partitions and a page in the scope form test every matching row
   * (`population`). A seek binds `@after` (the doc id it reads after) and `@watermark`, and reads nothing when the
   * watermark has moved; the scope form reads by offset alone, as it sorts the scope's doc ids wherever it starts.
   */
  #statements(conditions: PageConditions, filtersOnDocument: boolean, watermark: string): ListStatementsSql {
    const whereOf = (parts: readonly string[]) => (parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '');
    const { fields, window, rest, access } = conditions;
    const guard = window.form === 'guard' ? window.sql : [];
    const seekChecks = [...guard, `${watermark} = @watermark`];
    const windowOf = (seek: boolean): string[] => {
      const checks = seek ? seekChecks : guard;
      const filters = window.form === 'guard' ? [] : window.sql;
      if (!seek) return checks.length === 0 ? [...filters] : [...filters, `r.doc_id > ${startWhile(checks, '0')}`];
      // The bound on d too: PostgreSQL does not carry an inequality across the join, and would merge-join document
      // from its first row. The same bound on both: SQLite carries d's over to r, and may seek r by that one.
      const start = startWhile(checks, '@after');
      return [...filters, `r.doc_id > ${start}`, `d.doc_id > ${start}`];
    };
    const countJoin = filtersOnDocument ? DOCUMENT_JOIN : '';
    const whereFor = (seek: boolean, form: 'page' | 'population') =>
      whereOf([...this.#scope, ...fields, ...windowOf(seek), ...rest, ...access[form]]);
    const rows =
      `SELECT r.doc_id, d.uuid, r.body, r.change_version, r.last_modified, ${watermark} AS watermark ` +
      `FROM ${this.#from}${DOCUMENT_JOIN}`;
    const page = (seek: boolean) => `${rows}${whereFor(seek, 'page')} ORDER BY r.doc_id LIMIT ? OFFSET ?`;
    // The population's doc ids are sorted from its index entries; only the page's rows and bodies are read. No index
    // gives the order of `doc_id + 0`: PostgreSQL would otherwise walk the primary key in order to stop at the limit,
    // through every row before the scope's.
    const populationWhere = whereFor(false, 'population');
    const scopePage =
      `${rows} WHERE r.doc_id IN (SELECT r.doc_id FROM ${this.#from}${countJoin}${populationWhere} ` +
      'ORDER BY r.doc_id + 0 LIMIT ? OFFSET ?) ORDER BY r.doc_id';
    const numbered =
      'SELECT r.doc_id, row_number() OVER (ORDER BY r.doc_id) AS position, count(*) OVER () AS total ' +
      `FROM ${this.#from}${countJoin}${populationWhere}`;
    return {
      select: page(false),
      seek: page(true),
      probe: `SELECT 1 AS holds WHERE ${seekChecks.join(' AND ')}`,
      scopeSelect: scopePage,
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
