// SQLite's spelling of what the relational SQL builders leave to the dialect: lists bound as JSON text and read with
// json_each, JSON scalars with json_extract (typed as stored), and the `casefold` function the connection registers.
import type { JsonStep, SqlDialect } from '../relational/sql-dialect.js';

const jsonOfLists = new WeakMap<readonly unknown[], string>();

/** A caller's claim lists are the same arrays on every request of its token: each is serialized once. */
function jsonOfList(values: readonly unknown[]): string {
  let json = jsonOfLists.get(values);
  if (json === undefined) {
    json = JSON.stringify(values);
    jsonOfLists.set(values, json);
  }
  return json;
}

function jsonPathOf(steps: readonly JsonStep[]): string {
  return `$${steps.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}`;
}

export const sqliteDialect: SqlDialect = {
  true: '1',
  false: '0',
  valueList: (parameter, _type, alias) => `json_each(@${parameter})${alias === undefined ? '' : ` ${alias}`}`,
  bindList: jsonOfList,
  jsonScalar: (column, steps) => `json_extract(${column}, '${jsonPathOf(steps)}')`,
  caseFold: (expression) => `casefold(${expression})`,
  caseFoldIndexable: false,
  greatest: (first, second) => `max(${first}, ${second})`,
  derivedTable: (query) => `(${query})`,
  testedNotSought: (column) => `+${column}`,
  testedPerRow: '',
  filteredNotJoined: (condition) => condition,
};
