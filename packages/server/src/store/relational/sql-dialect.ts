// What differs between the SQL dialects the relational builders write for: a list of values bound as one parameter,
// scalars read from JSON kept as text, case folding and a few spellings. Builders write parameters in one neutral
// notation: `?` for positional values, bound in order of appearance, and `@name` for named ones. SQLite runs that as
// is; a driver with numbered parameters renumbers the finished statement.

/** How a bound list's elements, or a scalar read from JSON, compare: as integers, reals, booleans (1/0) or text. */
export type SqlScalarType = 'integer' | 'real' | 'boolean' | 'text';

/** One step into a JSON document: a member name or an array index. */
export type JsonStep = string | number;

export interface SqlDialect {
  /** A condition that always holds, and one that never does. */
  readonly true: string;
  readonly false: string;
  /** The list bound to `@parameter` as a table whose one column is `value`, under `alias` when given. */
  valueList(parameter: string, type: 'integer' | 'text', alias?: string): string;
  /** A list as `valueList` expects it bound. */
  bindList(values: readonly (number | string)[]): unknown;
  /** The scalar at `steps` in the JSON text of `column`, comparable with columns and parameters of `type`. */
  jsonScalar(column: string, steps: readonly JsonStep[], type: SqlScalarType): string;
  /** `foldCase` (table-layout.ts) in SQL. */
  caseFold(expression: string): string;
  /**
   * Whether an index may use `caseFold`: only a built-in function keeps the database file usable (writable, checkable)
   * by connections that have not registered ours.
   */
  readonly caseFoldIndexable: boolean;
  /** The larger of two values. */
  greatest(first: string, second: string): string;
  /** A subquery in a FROM clause. */
  derivedTable(query: string): string;
  /**
   * `column` as the operand of an `IN` list that is tested on the rows an index seek found, not sought with: on a
   * composite index's second column SQLite seeks once per list element, in order, until one matches. PostgreSQL tests
   * such a list with a hashed subplan already; a unary plus there costs it the plan it would choose.
   */
  testedNotSought(column: string): string;
}

/** `$.a.b` (the simple member paths the model's query fields use) as steps. */
export function memberSteps(path: string): string[] {
  return path.split('.').slice(1);
}
