// The statements of the PostgreSQL reader, built from the relational SQL in PostgreSQL's dialect and renumbered once:
// shared by the live reader and every snapshot's, with the record of which of them each connection has prepared. Reads
// by id and by key are fixed by the model; statements that vary with the query (access signatures, filter
// combinations, probe lists) sit in bounded caches, and each connection prepares a bounded number of them.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { AccessFilter, DocumentWrite, SubjectRelation } from '../store.js';
import { AccessSql, accessSignatureOf } from '../relational/access-sql.js';
import {
  authorizedReadSql,
  documentReadSql,
  NEWEST_CHANGE_VERSION_SQL,
  OWNERSHIP_TOKEN_SQL,
  type DocumentKey,
  type KeyComparison,
} from '../relational/document-read-sql.js';
import { ListSql, type ListShape, type Selection } from '../relational/list-sql.js';
import { LruCache } from '../relational/lru-cache.js';
import { OffsetPages } from '../relational/offset-pages.js';
import type { ResourceTables } from '../relational/resource-tables.js';
import { resourceKey } from '../relational/schema-plan.js';
import { narrowScopeSql } from '../relational/scope-breadth.js';
import type { SqlValue } from '../relational/table-layout.js';
import { trackedChangeSqlOf, type PagedSql } from '../relational/tracked-change-sql.js';
import { postgresDialect } from './postgres-dialect.js';
import { PreparedStatementBudget } from './prepared-budget.js';
import { fixedStatement, shapeStatement, type StatementText } from './statement-texts.js';

export interface ListStatements {
  readonly select: StatementText;
  readonly seek: StatementText;
  readonly probe: StatementText;
  readonly scopeSelect: StatementText;
  readonly count: StatementText;
  readonly partitions: StatementText;
}

/** A read by API id, alone and over an array of ids (point-reads.ts). */
export interface PointReadStatements {
  readonly single: StatementText;
  readonly batched: StatementText;
}

const ANY: KeyComparison = '= ANY (?)';

export interface PagedStatements {
  readonly page: StatementText;
  readonly count: StatementText;
}

export interface FeedStatements {
  readonly deletes: PagedStatements;
  readonly keyChanges: PagedStatements;
}

/** A probe's value is compared with ed-org ids or with people's unique ids. */
function valueTypeOf(relation: SubjectRelation): string {
  return relation === 'edOrgDescendant' || relation === 'edOrgAncestor' ? 'bigint' : 'text';
}

function pagedStatements(sql: PagedSql): PagedStatements {
  return { page: shapeStatement(sql.page), count: shapeStatement(sql.count) };
}

export class PostgresReadStatements {
  readonly ownershipToken = fixedStatement(OWNERSHIP_TOKEN_SQL);
  readonly newestChangeVersion = fixedStatement(NEWEST_CHANGE_VERSION_SQL);
  readonly prepared = new PreparedStatementBudget();
  /** Where pages ended, for the live reader and the snapshots' alike: each seek checks it in its own snapshot. */
  readonly pages = new OffsetPages();
  /**
   * Whether a list's claims are narrow enough for pages in the scope form (scope-breadth.ts). Counted with the shapes'
   * statements: it runs about once a minute per claim list, so it may as well run unnamed on a connection whose budget
   * is spent.
   */
  readonly narrowScope: StatementText;
  readonly #access: AccessSql;
  /** Per resource and look-up key: bounded by the model. */
  readonly #documentReads = new Map<ResourceModel, Map<string, StatementText>>();
  readonly #listSql = new Map<ResourceModel, ListSql>();
  readonly #authorizedReads = new LruCache<PointReadStatements>();
  readonly #lists = new LruCache<ListStatements>();
  readonly #feeds = new LruCache<FeedStatements>();
  readonly #relationProbes = new LruCache<StatementText>();

  constructor(
    private readonly catalog: ResourceTables,
    registry: ModelRegistry,
  ) {
    this.#access = new AccessSql(catalog, registry, postgresDialect);
    this.narrowScope = shapeStatement(narrowScopeSql(this.#access, postgresDialect));
  }

  /** The read by natural key and the key of the document a write names. */
  identityRead(write: DocumentWrite): { statements: PointReadStatements; identityKey: string } {
    const { layout } = this.catalog.tableOf(write.resource);
    return { statements: this.pointRead(write.resource, 'r.identity_key'), identityKey: layout.identityKeyOf(write) };
  }

  /** The read by API id (`d.uuid`) or natural key (`r.identity_key`), alone and over an array of keys. */
  pointRead(resource: ResourceModel, key: DocumentKey): PointReadStatements {
    return { single: this.#documentReadOf(resource, key, '= ?'), batched: this.#documentReadOf(resource, key, ANY) };
  }

  /** The authorized read by API id, alone and over an array of ids, with the access parameters. */
  authorizedPointRead(resource: ResourceModel, filter: AccessFilter): PointReadStatements {
    return this.#authorizedReads.get(`${resourceKey(resource)}|${accessSignatureOf(filter)}`, () => {
      const statement = (comparison: KeyComparison): StatementText =>
        shapeStatement(authorizedReadSql(this.catalog.tableOf(resource), this.#access, filter, comparison));
      return { single: statement('= ?'), batched: statement(ANY) };
    });
  }

  #documentReadOf(resource: ResourceModel, key: DocumentKey, comparison: KeyComparison): StatementText {
    let reads = this.#documentReads.get(resource);
    if (reads === undefined) {
      reads = new Map();
      this.#documentReads.set(resource, reads);
    }
    const readKey = `${key} ${comparison}`;
    let statement = reads.get(readKey);
    if (statement === undefined) {
      statement = fixedStatement(documentReadSql(this.catalog.tableOf(resource), key, '', comparison));
      reads.set(readKey, statement);
    }
    return statement;
  }

  list(resource: ResourceModel, selection: Selection): { statements: ListStatements; values: SqlValue[] } {
    return this.listOf(resource, this.listSqlOf(resource).shapeOf(selection));
  }

  listOf(resource: ResourceModel, shape: ListShape): { statements: ListStatements; values: SqlValue[] } {
    const statements = this.#lists.get(`${resourceKey(resource)}|${shape.key}`, () => {
      const sql = shape.statements();
      return {
        select: shapeStatement(sql.select),
        seek: shapeStatement(sql.seek),
        probe: shapeStatement(sql.probe),
        scopeSelect: shapeStatement(sql.scopeSelect),
        count: shapeStatement(sql.count),
        partitions: shapeStatement(sql.partitions),
      };
    });
    return { statements, values: shape.values };
  }

  feed(resource: ResourceModel, filter: AccessFilter | undefined): FeedStatements {
    return this.#feeds.get(`${resourceKey(resource)}|${accessSignatureOf(filter)}`, () => {
      const sql = trackedChangeSqlOf(this.catalog.tableOf(resource), this.#access, postgresDialect, filter);
      return { deletes: pagedStatements(sql.deletes), keyChanges: pagedStatements(sql.keyChanges) };
    });
  }

  /**
   * Every probe of one authorization check in one statement: named parameters `claims` and `value_<i>`, one boolean
   * column `related_<i>` per probe.
   */
  relationProbes(relations: readonly SubjectRelation[]): StatementText {
    return this.#relationProbes.get(relations.join(','), () => {
      const columns = relations.map((relation, index) => {
        const value = `@value_${index}::${valueTypeOf(relation)}`;
        return `${this.#access.relatedOf(relation, value, false, 'probe')} AS related_${index}`;
      });
      return shapeStatement(`SELECT ${columns.join(', ')}`);
    });
  }

  listSqlOf(resource: ResourceModel): ListSql {
    let sql = this.#listSql.get(resource);
    if (sql === undefined) {
      sql = new ListSql(this.catalog.tableOf(resource), this.#access, postgresDialect);
      this.#listSql.set(resource, sql);
    }
    return sql;
  }
}
