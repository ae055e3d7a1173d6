// The read operations of the PostgreSQL store, with the same results as SQLite's DocumentReader: over the pool for
// live reads, or over one connection whose REPEATABLE READ transaction pins a snapshot. Readers share their statements
// and the record of which of them each connection has prepared.
import pg from 'pg';
import type { ResourceModel } from '../../model/index.js';
import type {
  AccessFilter,
  AuthorizedDocument,
  DeletedDocument,
  DocumentWrite,
  KeyChange,
  ListQuery,
  ListResult,
  PartitionQuery,
  StoredDocument,
  SubjectProbe,
  TrackedChangeList,
  TrackedChangeQuery,
} from '../store.js';
import { accessParametersOf } from '../relational/access-sql.js';
import { listParametersOf, type PageRow } from '../relational/list-sql.js';
import type { PageStep } from '../relational/offset-pages.js';
import { isRelationshipScoped, type PageForm } from '../relational/scope-breadth.js';
import type { ReadRow } from '../relational/stored-documents.js';
import { toStoredDocument } from '../relational/stored-documents.js';
import {
  toDeletedDocument,
  toKeyChange,
  windowOf,
  type DeletionRow,
  type KeyChangeRow,
} from '../relational/tracked-change-sql.js';
import { postgresDialect } from './postgres-dialect.js';
import { PointReadBatches } from './point-reads.js';
import type { PagedStatements, PointReadStatements, PostgresReadStatements } from './read-statements.js';
import { bindingsOf, type StatementText } from './statement-texts.js';

type Named = Readonly<Record<string, unknown>>;
type AuthorizedRow = ReadRow & { readonly authorized: boolean };

interface CountRow {
  readonly count: number;
}

function accessParameters(filter: AccessFilter | undefined): Named {
  return { ...accessParametersOf(filter, postgresDialect) };
}

export class PostgresDocumentReader {
  /** Reads by id or key over the pool are asked together per turn; a snapshot's connection runs them one by one. */
  readonly #pointReads: PointReadBatches | undefined;

  constructor(
    private readonly db: pg.Pool | pg.ClientBase,
    private readonly statements: PostgresReadStatements,
  ) {
    if (db instanceof pg.Pool)
      this.#pointReads = new PointReadBatches((statement, values) =>
        this.statements.prepared.rows<ReadRow>(db, statement, values),
      );
  }

  async get(resource: ResourceModel, id: string): Promise<StoredDocument | undefined> {
    const row = await this.#pointRead<ReadRow>(this.statements.pointRead(resource, 'd.uuid'), id, {});
    return row && toStoredDocument(row);
  }

  async getAuthorized(
    resource: ResourceModel,
    id: string,
    access: AccessFilter,
  ): Promise<AuthorizedDocument | undefined> {
    const statements = this.statements.authorizedPointRead(resource, access);
    const row = await this.#pointRead<AuthorizedRow>(statements, id, accessParameters(access));
    return row && { document: toStoredDocument(row), authorized: row.authorized };
  }

  async findByIdentity(write: DocumentWrite): Promise<StoredDocument | undefined> {
    const { statements, identityKey } = this.statements.identityRead(write);
    const row = await this.#pointRead<ReadRow>(statements, identityKey, {});
    return row && toStoredDocument(row);
  }

  async ownershipTokenOf(id: string): Promise<number | undefined> {
    const [row] = await this.#rows<{ ownership_token: number }>(this.statements.ownershipToken, [id]);
    return row?.ownership_token;
  }

  async relatedSubjects(
    educationOrganizationIds: readonly number[],
    probes: readonly SubjectProbe[],
  ): Promise<boolean[]> {
    // An ed-org the caller holds is related to itself either way: only the others need the closure.
    const claimed = probes.map((probe) => isClaimedEdOrg(probe, educationOrganizationIds));
    const asked = probes.filter((_, index) => !claimed[index]);
    if (asked.length === 0) return claimed;
    const statement = this.statements.relationProbes(asked.map((probe) => probe.relation));
    const named: Record<string, unknown> = { claims: postgresDialect.bindList(educationOrganizationIds) };
    asked.forEach((probe, index) => (named[`value_${index}`] = probe.value));
    const [row] = await this.#rows<Record<string, boolean>>(statement, [], named);
    let next = 0;
    return claimed.map((isClaimed) => isClaimed || row?.[`related_${next++}`] === true);
  }

  async list(resource: ResourceModel, query: ListQuery): Promise<ListResult> {
    const named = { ...accessParameters(query.access), ...listParametersOf(query, postgresDialect) };
    const [rows, totalCount] = await Promise.all([
      query.limit > 0 ? this.#page(resource, query, named) : [],
      query.totalCount ? this.#listCount(resource, query, named) : undefined,
    ]);
    const items = rows.map(toStoredDocument);
    return totalCount === undefined ? { items } : { items, totalCount };
  }

  async #page(resource: ResourceModel, query: ListQuery, named: Named): Promise<PageRow[]> {
    const sql = this.statements.listSqlOf(resource);
    const { pages } = this.statements;
    let step: PageStep | undefined = pages.first(sql, query, await this.#pageFormOf(query.access, named));
    let rows: PageRow[] = [];
    while (step !== undefined) {
      const { statements, values } = this.statements.listOf(resource, step.shape);
      const stepNamed = { ...named, ...step.named };
      rows = await this.#rows<PageRow>(statements[step.statement], [...values, ...step.bindings], stepNamed);
      if (pages.probesEnd(step, rows) && (await this.#rows(statements.probe, [], stepNamed)).length > 0) break;
      step = pages.next(sql, query, step, rows);
    }
    return rows;
  }

  async #pageFormOf(access: AccessFilter | undefined, named: Named): Promise<PageForm> {
    if (!isRelationshipScoped(access)) return 'scan';
    const { breadths } = this.statements.pages;
    const known = breadths.find(access);
    if (known !== undefined) return known;
    const [row] = await this.#rows<{ narrow: number }>(this.statements.narrowScope, [], named);
    return breadths.remember(access, row?.narrow ?? 0);
  }

  #listCount(resource: ResourceModel, query: ListQuery, named: Named): Promise<number> {
    const { statements, values } = this.statements.list(resource, query);
    return this.#count(statements.count, values, named);
  }

  async partitionStarts(resource: ResourceModel, query: PartitionQuery): Promise<number[]> {
    const { statements, values } = this.statements.list(resource, query);
    const positional = [...values, query.count, query.count, query.minimumSize];
    const named = { ...accessParameters(query.access), ...listParametersOf(query, postgresDialect) };
    const rows = await this.#rows<{ doc_id: number }>(statements.partitions, positional, named);
    return rows.map((row) => row.doc_id);
  }

  async newestChangeVersion(): Promise<number> {
    const [row] = await this.#rows<{ value: number }>(this.statements.newestChangeVersion, []);
    return row?.value ?? 0;
  }

  deletes(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<DeletedDocument>> {
    return this.#listed<DeletionRow, DeletedDocument>(
      this.statements.feed(resource, query.access).deletes,
      query,
      toDeletedDocument,
    );
  }

  keyChanges(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<KeyChange>> {
    return this.#listed<KeyChangeRow, KeyChange>(
      this.statements.feed(resource, query.access).keyChanges,
      query,
      toKeyChange,
    );
  }

  async #listed<Row, Item>(
    statements: PagedStatements,
    query: TrackedChangeQuery,
    toItem: (row: Row) => Item,
  ): Promise<TrackedChangeList<Item>> {
    const window = windowOf(query.changeVersions);
    const named = accessParameters(query.access);
    const [rows, totalCount] = await Promise.all([
      query.limit > 0 ? this.#rows<Row>(statements.page, [...window, query.limit, query.offset], named) : [],
      query.totalCount ? this.#count(statements.count, window, named) : undefined,
    ]);
    const items = rows.map(toItem);
    return totalCount === undefined ? { items } : { items, totalCount };
  }

  async #count(statement: StatementText, positional: readonly unknown[], named: Named): Promise<number> {
    const [row] = await this.#rows<CountRow>(statement, positional, named);
    return row?.count ?? 0;
  }

  async #pointRead<Row extends ReadRow>(
    statements: PointReadStatements,
    key: string,
    named: Named,
  ): Promise<Row | undefined> {
    if (this.#pointReads) return this.#pointReads.read<Row>({ ...statements, key, named });
    return (await this.#rows<Row>(statements.single, [key], named))[0];
  }

  #rows<Row>(statement: StatementText, positional: readonly unknown[], named?: Named): Promise<Row[]> {
    return this.statements.prepared.rows<Row>(this.db, statement, bindingsOf(statement, positional, named));
  }
}

function isClaimedEdOrg({ relation, value }: SubjectProbe, educationOrganizationIds: readonly number[]): boolean {
  return (
    (relation === 'edOrgDescendant' || relation === 'edOrgAncestor') && educationOrganizationIds.includes(Number(value))
  );
}
