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
  /**
   * Ends a correlated `EXISTS` subquery that is to be tested row by row, a probe of an index per row: PostgreSQL would
   * otherwise pull it up into a semi-join or test it with a hashed subplan, both of which read the subquery's whole
   * table (every enrolment of the state) before the first row is tested.
   */
  readonly testedPerRow: string;
  /**
   * `condition` (an `IN` subquery) tested on each row as a filter: PostgreSQL pulls such a condition up into a
   * semi-join when it stands at the top of a WHERE clause, and then plans with its guess of the subquery's rows.
   */
  filteredNotJoined(condition: string): string;
}

/** `$.a.b` (the simple member paths the model's query fields use) as steps. */
export function memberSteps(path: string): string[] {
  return path.split('.').slice(1);
}
