// `/deletes` and `/keyChanges` of one resource over `tracked_change` (contract §4.4, §4.5): deletions whose natural
// key exists again are hidden by a probe of the live table; key changes are merged per document in SQL, before paging.
import type Database from 'better-sqlite3';
import type {
  AccessFilter,
  ChangeVersionRange,
  DeletedDocument,
  KeyChange,
  KeyValues,
  TrackedChangeList,
  TrackedChangeQuery,
  TrackedSecurables,
} from '../store.js';
import {
  accessParametersOf,
  accessSignatureOf,
  type AccessParameters,
  type AccessSql,
  type SubjectExpressions,
} from './access-sql.js';
import type { ResourceTable } from './resource-table.js';
import { TRACKED_CHANGE_TABLE } from '../relational/schema-plan.js';

interface DeletionRow {
  readonly change_version: number;
  readonly uuid: string;
  readonly old_key: string;
  readonly old_securables: string;
}

interface KeyChangeRow extends DeletionRow {
  readonly new_key: string;
}

type Window = [number, number, AccessParameters];
type Page = [number, number, AccessParameters, number, number];

interface PagedStatements<Row> {
  readonly page: Database.Statement<Page, Row>;
  readonly count: Database.Statement<Window, number>;
}

/** Open bounds as the widest integers SQLite compares exactly with our versions. */
function windowOf(range: ChangeVersionRange | undefined, access: AccessFilter | undefined): Window {
  return [range?.min ?? Number.MIN_SAFE_INTEGER, range?.max ?? Number.MAX_SAFE_INTEGER, accessParametersOf(access)];
}

/** A tombstone's securable values: the old ones it keeps as JSON (the ReadChanges "including deletes" idea). */
function trackedSubjectsOf(table: ResourceTable, alias: string): SubjectExpressions {
  const elements = table.layout.resource.securableElements;
  const extract = (path: string) => `json_extract(${alias}.old_securables, '${path}')`;
  const indexed = (name: string, paths: readonly string[]) => paths.map((_, index) => extract(`$.${name}[${index}]`));
  return {
    educationOrganizations: elements.educationOrganizations.map(({ name }) =>
      extract(`$.educationOrganizationIds.${name}`),
    ),
    students: indexed('studentUniqueIds', elements.students),
    staffs: indexed('staffUniqueIds', elements.staffs),
    contacts: indexed('contactUniqueIds', elements.contacts),
    namespaces: indexed('namespaces', elements.namespaces),
  };
}

function listed<Row, Item>(
  statements: PagedStatements<Row>,
  query: TrackedChangeQuery,
  toItem: (row: Row) => Item,
): TrackedChangeList<Item> {
  const window = windowOf(query.changeVersions, query.access);
  const items = query.limit > 0 ? statements.page.all(...window, query.limit, query.offset).map(toItem) : [];
  if (!query.totalCount) return { items };
  return { items, totalCount: statements.count.get(...window) ?? 0 };
}

function keyValues(json: string): KeyValues {
  return JSON.parse(json) as KeyValues;
}

function securables(json: string): TrackedSecurables {
  return JSON.parse(json) as TrackedSecurables;
}

interface FeedStatements {
  readonly deletes: PagedStatements<DeletionRow>;
  readonly keyChanges: PagedStatements<KeyChangeRow>;
}

export class TrackedChangeQueries {
  /** By access signature: one set of statements per shape of authorization. */
  readonly #statements = new Map<string, FeedStatements>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: ResourceTable,
    private readonly access: AccessSql,
  ) {}

  #statementsFor(filter: AccessFilter | undefined): FeedStatements {
    const signature = accessSignatureOf(filter);
    let statements = this.#statements.get(signature);
    if (statements === undefined) {
      statements = this.#prepare(filter);
      this.#statements.set(signature, statements);
    }
    return statements;
  }

  #prepare(filter: AccessFilter | undefined): FeedStatements {
    const { db, table } = this;
    const { resourceId, layout } = table;
    const authorized = (alias: string) =>
      filter === undefined ? '' : ` AND ${this.access.predicateOf(filter, trackedSubjectsOf(table, alias), true)}`;
    const tracked = (kind: 'D' | 'K') =>
      `FROM ${TRACKED_CHANGE_TABLE} t WHERE t.resource_id = ${resourceId} AND t.kind = '${kind}' ` +
      'AND t.change_version BETWEEN ? AND ?';
    const scope = layout.shared ? `r.resource_id = ${resourceId} AND ` : '';
    const live = `NOT EXISTS (SELECT 1 FROM ${layout.table} r WHERE ${scope}r.identity_key = t.old_identity_key)`;
    const deletes = {
      page: db.prepare<Page, DeletionRow>(
        `SELECT t.change_version, t.uuid, t.old_key, t.old_securables ${tracked('D')} AND ${live}${authorized('t')} ` +
          'ORDER BY t.change_version LIMIT ? OFFSET ?',
      ),
      count: db.prepare<Window, number>(`SELECT count(*) ${tracked('D')} AND ${live}${authorized('t')}`).pluck(),
    };
    const merged =
      `WITH merged AS (SELECT t.uuid, min(t.change_version) AS first_version, max(t.change_version) AS last_version ` +
      `${tracked('K')} GROUP BY t.uuid)`;
    const mergedRows =
      `FROM merged m JOIN ${TRACKED_CHANGE_TABLE} f ON f.change_version = m.first_version ` +
      `JOIN ${TRACKED_CHANGE_TABLE} l ON l.change_version = m.last_version WHERE 1${authorized('f')}`;
    const keyChanges = {
      page: db.prepare<Page, KeyChangeRow>(
        `${merged} SELECT m.uuid, m.last_version AS change_version, f.old_key, f.old_securables, l.new_key ` +
          `${mergedRows} ORDER BY m.last_version LIMIT ? OFFSET ?`,
      ),
      count: db.prepare<Window, number>(`${merged} SELECT count(*) ${mergedRows}`).pluck(),
    };
    return { deletes, keyChanges };
  }

  deletes(query: TrackedChangeQuery): TrackedChangeList<DeletedDocument> {
    return listed(this.#statementsFor(query.access).deletes, query, (row) => ({
      id: row.uuid,
      changeVersion: row.change_version,
      keyValues: keyValues(row.old_key),
      securables: securables(row.old_securables),
    }));
  }

  keyChanges(query: TrackedChangeQuery): TrackedChangeList<KeyChange> {
    return listed(this.#statementsFor(query.access).keyChanges, query, (row) => ({
      id: row.uuid,
      changeVersion: row.change_version,
      oldKeyValues: keyValues(row.old_key),
      newKeyValues: keyValues(row.new_key),
      securables: securables(row.old_securables),
    }));
  }
}
