// Parses a PostgreSQL store spec: `postgres://user:password@host:port/database` (or `postgresql://`) with our own
// query parameters `schema` (default `public`) and `poolSize`; every other parameter (sslmode, application_name, …)
// goes to the driver unchanged.

export interface PostgresConnectionSpec {
  /** What the driver connects with: the spec without our parameters, `search_path` set to the schema. */
  readonly connectionString: string;
  /** The PostgreSQL schema that holds the store's tables. */
  readonly schema: string;
  /** Connections the pool keeps at most. */
  readonly poolSize: number;
}

const PROTOCOLS = new Set(['postgres:', 'postgresql:']);
const DEFAULT_SCHEMA = 'public';
const DEFAULT_POOL_SIZE = 10;
const MAX_POOL_SIZE = 1_000;
/** Unquoted-identifier characters only, so the name needs no escaping in DDL or in the startup `options`. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function isPostgresSpec(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}

/** The schema name as an SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Without the password, for messages and logs. */
export function redactedSpec(spec: string): string {
  return spec.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

function parsePoolSize(value: string | null, spec: string): number {
  if (value === null) return DEFAULT_POOL_SIZE;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > MAX_POOL_SIZE)
    throw new Error(`The store spec '${redactedSpec(spec)}' has an invalid poolSize '${value}'`);
  return size;
}

const NO_JIT = '-c jit=off';

export function parsePostgresSpec(spec: string): PostgresConnectionSpec {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new Error(`The store spec '${redactedSpec(spec)}' is not a valid PostgreSQL URL`);
  }
  if (!PROTOCOLS.has(url.protocol.toLowerCase()))
    throw new Error(`The store spec '${redactedSpec(spec)}' is not a postgres:// or postgresql:// URL`);
  const schema = url.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema))
    throw new Error(
      `The store spec '${redactedSpec(spec)}' names the schema '${schema}': use letters, digits and _ (at most 63)`,
    );
  const poolSize = parsePoolSize(url.searchParams.get('poolSize'), spec);
  url.searchParams.delete('schema');
  url.searchParams.delete('poolSize');
  // The driver lets the connection string's `options` win over its config, so the search path joins them there.
  // JIT is off unless the spec's own options turn it on (they come later, so they win): the generic plan of a broad
  // page is priced above jit_above_cost, and compiling it costs 60–470 ms for a statement that runs in 3.
  const options = url.searchParams.get('options');
  const searchPath = `-c search_path=${quoteIdentifier(schema)}`;
  url.searchParams.set('options', [NO_JIT, options, searchPath].filter((part) => part !== null).join(' '));
  return { connectionString: url.toString(), schema, poolSize };
}
