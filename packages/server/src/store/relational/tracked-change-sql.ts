// The SQL of `/deletes` and `/keyChanges` of one resource over `tracked_change` (contract §4.4, §4.5): deletions whose
// natural key exists again are hidden by a probe of the live table; key changes are merged per document in SQL,
// before paging. Rows become the Store's items here too.
import type {
  AccessFilter,
  ChangeVersionRange,
  DeletedDocument,
  KeyChange,
  KeyValues,
  TrackedSecurables,
} from '../store.js';
import type { AccessSql, SubjectExpressions } from './access-sql.js';
import type { ResourceTableRef } from './resource-tables.js';
import { TRACKED_CHANGE_TABLE } from './schema-plan.js';
import type { JsonStep, SqlDialect } from './sql-dialect.js';

export interface DeletionRow {
  readonly change_version: number;
  readonly uuid: string;
  readonly old_key: string;
  readonly old_securables: string;
}

export interface KeyChangeRow extends DeletionRow {
  readonly new_key: string;
}

/** A page binds the window, then limit and offset; a count binds the window. Both bind the access parameters. */
export interface PagedSql {
  readonly page: string;
  readonly count: string;
}

export interface TrackedChangeSql {
  readonly deletes: PagedSql;
  readonly keyChanges: PagedSql;
}

/** A change-version window as the statements bind it: open bounds as the widest integers compared exactly. */
export function windowOf(range: ChangeVersionRange | undefined): [number, number] {
  return [range?.min ?? Number.MIN_SAFE_INTEGER, range?.max ?? Number.MAX_SAFE_INTEGER];
}

/** A tombstone's securable values: the old ones it keeps as JSON (the ReadChanges "including deletes" idea). */
function trackedSubjectsOf(table: ResourceTableRef, alias: string, dialect: SqlDialect): SubjectExpressions {
  const elements = table.layout.resource.securableElements;
  const column = `${alias}.old_securables`;
  const indexed = (name: string, paths: readonly string[]) =>
    paths.map((_, index) => dialect.jsonScalar(column, [name, index] satisfies JsonStep[], 'text'));
  return {
    educationOrganizations: elements.educationOrganizations.map(({ name }) =>
      dialect.jsonScalar(column, ['educationOrganizationIds', name], 'integer'),
    ),
    students: indexed('studentUniqueIds', elements.students),
    staffs: indexed('staffUniqueIds', elements.staffs),
    contacts: indexed('contactUniqueIds', elements.contacts),
    namespaces: indexed('namespaces', elements.namespaces),
    owner: dialect.jsonScalar(column, ['ownershipTokenId'], 'integer'),
  };
}

export function trackedChangeSqlOf(
  table: ResourceTableRef,
  access: AccessSql,
  dialect: SqlDialect,
  filter: AccessFilter | undefined,
): TrackedChangeSql {
  const { resourceId, layout } = table;
  const authorized = (alias: string) =>
    filter === undefined ? '' : ` AND ${access.predicateOf(filter, trackedSubjectsOf(table, alias, dialect), true)}`;
  const tracked = (kind: 'D' | 'K') =>
    `FROM ${TRACKED_CHANGE_TABLE} t WHERE t.resource_id = ${resourceId} AND t.kind = '${kind}' ` +
    'AND t.change_version BETWEEN ? AND ?';
  const scope = layout.shared ? `r.resource_id = ${resourceId} AND ` : '';
  const live = `NOT EXISTS (SELECT 1 FROM ${layout.table} r WHERE ${scope}r.identity_key = t.old_identity_key)`;
  const merged =
    `WITH merged AS (SELECT t.uuid, min(t.change_version) AS first_version, max(t.change_version) AS last_version ` +
    `${tracked('K')} GROUP BY t.uuid)`;
  const mergedRows =
    `FROM merged m JOIN ${TRACKED_CHANGE_TABLE} f ON f.change_version = m.first_version ` +
    `JOIN ${TRACKED_CHANGE_TABLE} l ON l.change_version = m.last_version WHERE ${dialect.true}${authorized('f')}`;
  return {
    deletes: {
      page:
        `SELECT t.change_version, t.uuid, t.old_key, t.old_securables ${tracked('D')} AND ${live}${authorized('t')} ` +
        'ORDER BY t.change_version LIMIT ? OFFSET ?',
      count: `SELECT count(*) ${tracked('D')} AND ${live}${authorized('t')}`,
    },
    keyChanges: {
      page:
        `${merged} SELECT m.uuid, m.last_version AS change_version, f.old_key, f.old_securables, l.new_key ` +
        `${mergedRows} ORDER BY m.last_version LIMIT ? OFFSET ?`,
      count: `${merged} SELECT count(*) ${mergedRows}`,
    },
  };
}

function keyValues(json: string): KeyValues {
  return JSON.parse(json) as KeyValues;
}

function securables(json: string): TrackedSecurables {
  return JSON.parse(json) as TrackedSecurables;
}

export function toDeletedDocument(row: DeletionRow): DeletedDocument {
  return {
    id: row.uuid,
    changeVersion: row.change_version,
    keyValues: keyValues(row.old_key),
    securables: securables(row.old_securables),
  };
}

export function toKeyChange(row: KeyChangeRow): KeyChange {
  return {
    id: row.uuid,
    changeVersion: row.change_version,
    oldKeyValues: keyValues(row.old_key),
    newKeyValues: keyValues(row.new_key),
    securables: securables(row.old_securables),
  };
}
