// The SQL that reads one stored document (the columns of a ReadRow): by API id or by natural key, optionally with the
// answer to an access filter evaluated on the same row, in its per-value (probe) form; and the other single-row reads.
import type { AccessFilter } from '../store.js';
import { subjectColumnsOf, type AccessSql } from './access-sql.js';
import type { ResourceTableRef } from './resource-tables.js';
import { CHANGE_VERSION_KEY, DOCUMENT_OWNER_TABLE, DOCUMENT_TABLE } from './schema-plan.js';

/** One positional parameter: the API id. */
export const OWNERSHIP_TOKEN_SQL =
  `SELECT o.ownership_token FROM ${DOCUMENT_TABLE} d JOIN ${DOCUMENT_OWNER_TABLE} o ON o.doc_id = d.doc_id ` +
  'WHERE d.uuid = ?';

/** The last change version handed out, as committed (writers stamp it last: storage design L12). */
export const NEWEST_CHANGE_VERSION_SQL = `SELECT value FROM meta WHERE key = '${CHANGE_VERSION_KEY}'`;

/** The look-up column: `d.uuid` is the API id, `r.identity_key` the natural key. */
export type DocumentKey = 'd.uuid' | 'r.identity_key';

/**
 * How the look-up column meets its one positional parameter: equal to a value, or (in a dialect with arrays,
 * PostgreSQL) to any value of a text array, for several reads in one statement; each row then also has its key as
 * `point_key`.
 */
export type KeyComparison = '= ?' | '= ANY (?)';

/**
 * The row of `table` (as `alias`) that `condition` selects, a `FROM` item joined to the items before it, which
 * `condition` may refer to. PostgreSQL plans it as one probe of the index `condition` names, whatever the table's
 * statistics say. A prepared statement's generic plan is built once per connection, often while the table is still
 * empty and never analyzed; planned as a join, a look-up of an array of keys then gets a sequential scan, priced
 * below the index on an empty table, and keeps it as the table grows (until an ANALYZE), scanning every row for every
 * batch. The subquery's `LIMIT 1` keeps it from being flattened into such a join; `condition` must select one row at
 * most (a unique key).
 */
export function probedRow(table: string, alias: string, condition: string, lock = ''): string {
  return `CROSS JOIN LATERAL (SELECT * FROM ${table} ${alias} WHERE ${condition} LIMIT 1${lock}) ${alias}`;
}

/** The keys of the text array `keys` (a parameter), as the `FROM` item `k (key)`, one row each, in order. */
export function keysOf(keys: string): string {
  return `unnest(${keys}::text[]) AS k (key)`;
}

/** One positional parameter: the key's value (see `KeyComparison`). `extraColumns` may refer to the row as `r`. */
export function documentReadSql(
  table: ResourceTableRef,
  key: DocumentKey,
  extraColumns = '',
  comparison: KeyComparison = '= ?',
): string {
  const { layout, resourceId } = table;
  // Shared tables hold several resources; the id is a literal because each statement serves one resource.
  const scope = layout.shared ? `r.resource_id = ${resourceId} AND ` : '';
  const columns = `r.doc_id, d.uuid, r.body, r.change_version, r.last_modified${extraColumns}`;
  if (comparison === '= ?') {
    return (
      `SELECT ${columns} ` +
      `FROM ${layout.table} r JOIN ${DOCUMENT_TABLE} d ON d.doc_id = r.doc_id WHERE ${scope}${key} = ?`
    );
  }
  // The resource table may have been empty when a connection planned the statement (see `probedRow`); the document
  // table is not, from a store's first start on (its default descriptors), so its index looks the ids up at once.
  if (key === 'd.uuid') {
    return (
      `SELECT ${columns}, d.uuid AS point_key FROM ${DOCUMENT_TABLE} d ` +
      `${probedRow(layout.table, 'r', `${scope}r.doc_id = d.doc_id`)} WHERE d.uuid = ANY (?)`
    );
  }
  return (
    `SELECT ${columns}, k.key AS point_key FROM ${keysOf('?')} ` +
    `${probedRow(layout.table, 'r', `${scope}r.identity_key = k.key`)} JOIN ${DOCUMENT_TABLE} d ON d.doc_id = r.doc_id`
  );
}

/** A read by API id that also answers whether the row passes `filter`, as the column `authorized`. */
export function authorizedReadSql(
  table: ResourceTableRef,
  access: AccessSql,
  filter: AccessFilter,
  comparison: KeyComparison = '= ?',
): string {
  const predicate = access.predicateOf(filter, subjectColumnsOf(table.layout), false, 'probe');
  return documentReadSql(table, 'd.uuid', `, (${predicate}) AS authorized`, comparison);
}
