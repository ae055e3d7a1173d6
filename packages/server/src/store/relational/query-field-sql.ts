// The SQL value a list filter compares for one of a resource's query fields, and the indexes that serve those
// filters. Both come from one function, so an index's expression is, letter for letter, what the filter compares
// (the planners match expression indexes by their text, on SQLite and on PostgreSQL alike).
import type { JsonPath } from '../../model/index.js';
import { memberSteps, type SqlDialect, type SqlScalarType } from './sql-dialect.js';
import {
  growsWithPeople,
  ID_PATH,
  MEMBER_PATH,
  shapeAt,
  snakeCase,
  type TableLayout,
  type TypedColumn,
} from './table-layout.js';
const SCALAR_TYPES: Readonly<Record<string, SqlScalarType>> = {
  integer: 'integer',
  number: 'real',
  boolean: 'boolean',
};

export interface QueryFieldSql {
  /** The compared value, its columns prefixed with `prefix` (e.g. `r.`). */
  readonly expression: string;
  /** Compared case-folded (descriptor URIs). */
  readonly folded: boolean;
  /** Folded in SQL (`caseFold`), not as stored. */
  readonly foldedInSql: boolean;
  /** The typed column the value is, when it is one column alone. */
  readonly column?: TypedColumn;
  /** Present in every row (an identity column). */
  readonly alwaysPresent: boolean;
}

/**
 * Several paths mean a unified key: the values are equal wherever present, so an always-present identity column
 * decides alone, and otherwise the first present value does.
 */
export function queryFieldSql(
  layout: TableLayout,
  name: string,
  paths: readonly JsonPath[],
  dialect: SqlDialect,
  prefix: string,
): QueryFieldSql {
  const descriptorPaths = new Set(layout.resource.descriptors.map((use) => use.path));
  const folded = paths.some((path) => descriptorPaths.has(path));
  const columns = paths.map((path) => layout.columns.find((column) => column.path === path));
  const identityColumn = columns.find((column) => column?.notNull);
  if (identityColumn)
    return {
      expression: `${prefix}${identityColumn.name}`,
      folded,
      foldedInSql: false,
      column: identityColumn,
      alwaysPresent: true,
    };
  let foldedInSql = false;
  const expressions = paths.map((path, index) => {
    const column = columns[index];
    if (column) return `${prefix}${column.name}`;
    if (!MEMBER_PATH.test(path)) throw new Error(`Query field ${name} has an unsupported path ${path}`);
    const type = SCALAR_TYPES[shapeAt(layout.resource, path).type] ?? 'text';
    const extracted = dialect.jsonScalar(`${prefix}body`, memberSteps(path), type);
    // Typed descriptor columns are stored folded already.
    if (!folded) return extracted;
    foldedInSql = true;
    return dialect.caseFold(extracted);
  });
  const single = columns.length === 1 ? columns[0] : undefined;
  return {
    expression: expressions.length === 1 ? expressions[0]! : `COALESCE(${expressions.join(', ')})`,
    folded,
    foldedInSql,
    ...(single ? { column: single } : {}),
    alwaysPresent: false,
  };
}

/** An index for the filters on one query field: on its expression, only over the rows that have a value. */
export interface QueryFieldIndex {
  /** Unique within the table, e.g. `q_event_date`. */
  readonly suffix: string;
  readonly expression: string;
  /** The index's WHERE clause (`<expression> IS NOT NULL`), for values some rows lack. */
  readonly where?: string;
}

/**
 * The query-field indexes of a resource table: for a resource that grows with people, every query field whose value
 * is not an indexed column already (the id is, in `document`). Partial where rows may lack the value, so optional
 * fields few documents carry cost little; a filter's `= ?` implies `IS NOT NULL`, which lets both planners use them.
 * Descriptor values folded by an application function (SQLite's) stay unindexed: see `caseFoldIndexable`.
 */
export function queryFieldIndexesOf(layout: TableLayout, dialect: SqlDialect): QueryFieldIndex[] {
  const { resource } = layout;
  if (layout.shared || !growsWithPeople(resource)) return [];
  // Two query fields may compare the same value (a grade's schoolYear and gradingPeriodSchoolYear): one index serves both.
  const indexed = new Set<string>();
  return Object.entries(resource.queryFields).flatMap(([name, paths]) => {
    if (paths.length === 1 && paths[0] === ID_PATH) return [];
    const field = queryFieldSql(layout, name, paths, dialect, '');
    if (field.column?.indexed || (field.foldedInSql && !dialect.caseFoldIndexable)) return [];
    if (indexed.has(field.expression)) return [];
    indexed.add(field.expression);
    const suffix = `q_${snakeCase(name)}`;
    return [
      field.alwaysPresent
        ? { suffix, expression: field.expression }
        : { suffix, expression: field.expression, where: `${field.expression} IS NOT NULL` },
    ];
  });
}
