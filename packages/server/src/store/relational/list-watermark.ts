// The watermark of a list selection: a number that changes whenever a write could change which rows the selection
// returns, read in O(log n) index probes. Change versions are handed out in commit order (storage design L12), so every
// state a reader sees is a prefix of the commits, and two states with the same watermark agree on the selection.
// A remembered page position (offset-pages.ts) holds exactly while the watermark is the one it was read under.
import type { AccessFilter } from '../store.js';
import { NEWEST_CHANGE_VERSION_SQL } from './document-read-sql.js';
import type { ResourceTableRef } from './resource-tables.js';
import { TRACKED_CHANGE_TABLE } from './schema-plan.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * The resource's own newest version (its rows' and its deletions' newest), when the selection reads nothing but the
 * resource's rows: an insert or update stamps its row with a version above every earlier one, and a delete leaves a
 * tombstone with one. Relationship rules read other resources (associations, the ed-org closure), and a shared table
 * cannot find one resource's newest version in one probe: those selections take the store's newest version, which any
 * write moves.
 */
export function listWatermarkSql(
  table: ResourceTableRef,
  access: AccessFilter | undefined,
  dialect: SqlDialect,
): string {
  const { layout, resourceId } = table;
  if (layout.shared || (access !== undefined && access.relationships.length > 0))
    return `(${NEWEST_CHANGE_VERSION_SQL})`;
  const rows = `coalesce((SELECT max(w.change_version) FROM ${layout.table} w), 0)`;
  const deletions =
    `coalesce((SELECT max(t.change_version) FROM ${TRACKED_CHANGE_TABLE} t ` +
    `WHERE t.resource_id = ${resourceId} AND t.kind = 'D'), 0)`;
  return dialect.greatest(rows, deletions);
}
