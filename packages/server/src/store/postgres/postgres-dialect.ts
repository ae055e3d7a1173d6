// PostgreSQL's spelling of what the relational SQL builders leave to the dialect: lists bound as typed arrays and
// read with unnest, JSON scalars read from the text bodies through jsonb and cast to the type they compare with,
// lower() for case folding (Unicode-aware under the database's default collation).
import type { SqlDialect, SqlScalarType } from '../relational/sql-dialect.js';

const ELEMENT_TYPES = { integer: 'bigint', text: 'text' } as const;

/** JSON booleans compare as 1/0, like the typed columns that hold them. */
const CASTS: Readonly<Record<SqlScalarType, string>> = {
  integer: '::bigint',
  real: '::double precision',
  boolean: '::boolean::integer',
  text: '',
};

export const postgresDialect: SqlDialect = {
  true: 'true',
  false: 'false',
  valueList: (parameter, type, alias = 'list') => `unnest(@${parameter}::${ELEMENT_TYPES[type]}[]) AS ${alias}(value)`,
  bindList: (values) => values,
  // Steps are model names and indexes: nothing in them needs quoting inside the path literal.
  jsonScalar: (column, steps, type) => `((${column}::jsonb #>> '{${steps.join(',')}}')${CASTS[type]})`,
  caseFold: (expression) => `lower(${expression})`,
  caseFoldIndexable: true,
  greatest: (first, second) => `greatest(${first}, ${second})`,
  derivedTable: (query) => `(${query}) AS numbered`,
  testedNotSought: (column) => column,
  // A subquery with an OFFSET is neither pulled up nor hashed (simplify_EXISTS_query).
  testedPerRow: ' OFFSET 0',
  // Only conditions at the top of a WHERE clause, or under its ANDs, are pulled up (pull_up_sublinks).
  filteredNotJoined: (condition) => `(${condition}) IS TRUE`,
};
