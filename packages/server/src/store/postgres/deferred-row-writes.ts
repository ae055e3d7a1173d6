// Resource-row writes held back until the commit (change-stamps.ts), so that each row is written once, with its
// version, instead of inserted and then stamped: `change_version` is indexed, so a stamp is never a HOT update and
// writes the row and every index entry of it a second time. The commit's query is a simple query (it carries the
// COMMIT), which takes no parameters: the values travel as typed SQL literals, escaped as the driver escapes them.
import type { SqlValue } from '../relational/table-layout.js';

/** A resource row's insert, or the update of some of its columns, as typed SQL literals. */
export interface DeferredWrite {
  readonly kind: 'insert' | 'update';
  /** The columns written, change_version aside; an insert's include doc_id. */
  readonly columns: readonly string[];
  /** The values of `columns`, comma separated, in their order. */
  readonly values: string;
}

/** A deferred write of one document row, and the slot its version is numbered by. */
export interface DeferredRow {
  readonly docId: number;
  readonly slot: number;
  readonly write: DeferredWrite;
}

/**
 * `text` as a string literal, as the driver's `escapeLiteral` writes it (quotes doubled; with a backslash, an `E''`
 * literal with backslashes doubled, whatever `standard_conforming_strings` says), by native replaces rather than its
 * loop over each character: a document body is most of a commit's text.
 */
function quotedLiteral(text: string): string {
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** `value` as a literal of the PostgreSQL type `type`. */
export function sqlLiteral(value: SqlValue | undefined, type: string): string {
  return value === null || value === undefined ? `NULL::${type}` : `${quotedLiteral(String(value))}::${type}`;
}

/**
 * The statement that writes `rows` (all of one table, kind and column list) with `version`, SQL that computes a row's
 * version from its slot `x.slot`; `from` names what else `version` reads (`v, ` for the commit's counter).
 */
export function deferredWriteSql(table: string, rows: readonly DeferredRow[], version: string, from = ''): string {
  const { kind, columns } = rows[0]!.write;
  if (kind === 'insert') {
    const tuples = rows.map(({ slot, write }) => `(${write.values}, ${slot})`).join(', ');
    return (
      `INSERT INTO ${table} (${columns.join(', ')}, change_version) ` +
      `SELECT ${columns.map((column) => `x.${column}`).join(', ')}, ${version} ` +
      `FROM ${from}(VALUES ${tuples}) AS x (${columns.join(', ')}, slot)`
    );
  }
  const tuples = rows.map(({ docId, slot, write }) => `(${docId}, ${write.values}, ${slot})`).join(', ');
  return (
    `UPDATE ${table} t SET ${columns.map((column) => `${column} = x.${column}`).join(', ')}, ` +
    `change_version = ${version} FROM ${from}(VALUES ${tuples}) AS x (doc_id, ${columns.join(', ')}, slot) ` +
    'WHERE t.doc_id = x.doc_id'
  );
}

/** A row whose write is deferred, and its table. */
export interface DeferredTableRow extends DeferredRow {
  readonly table: string;
}

/** The statements that write `rows` with `version` (see `deferredWriteSql`): one per table, kind and column list. */
export function deferredWritesSql(rows: readonly DeferredTableRow[], version: string, from = ''): string[] {
  const groups = new Map<string, DeferredTableRow[]>();
  for (const row of rows) {
    const shape = `${row.table} ${row.write.kind} ${row.write.columns.join(',')}`;
    const group = groups.get(shape);
    if (group) group.push(row);
    else groups.set(shape, [row]);
  }
  return [...groups.values()].map((group) => deferredWriteSql(group[0]!.table, group, version, from));
}
