// The PostgreSQL write path, with the SQLite writer's behaviour: upsert by natural key, update by id (identity changes
// cascade to every referrer), delete with a tombstone, descriptor seeding. Each write runs in a group-commit batch's
// READ COMMITTED transaction (group-commit.ts): references resolved first, then the target row locked (`FOR UPDATE`)
// and the preconditions checked under that lock, then the rows written: the resource rows, as a rule, by the batch's
// commit with their versions, in commit order (change-stamps.ts). An upsert of a new item probes its natural key and inserts in one
// statement, and runs without a savepoint: its own errors come before its first change. A concurrent insert of the
// same natural key makes the insert (or the commit, for a row held back until then) fail with a unique violation;
// the write (or its batch) is then rolled back and runs again, finds that row and becomes an update.
import type pg from 'pg';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import {
  StoreError,
  tracksChanges,
  type DescriptorRow,
  type DocumentId,
  type DocumentWrite,
  type UpsertOutcome,
  type WriteOptions,
  type WriteOutcome,
} from '../store.js';
import { descriptorSeedWrite } from '../relational/descriptor-seeds.js';
import { newDocumentId } from '../relational/document-ids.js';
import { withLinks, type Node } from '../relational/reference-links.js';
import { rewriteReferences } from '../relational/reference-rewrite.js';
import type { ResolvedReferences, UnresolvedReference } from '../relational/resolved-references.js';
import {
  DESCRIPTOR_EDGE_TABLE,
  DOCUMENT_EDGE_TABLE,
  DOCUMENT_OWNER_TABLE,
  DOCUMENT_TABLE,
} from '../relational/schema-plan.js';
import { etagOf, type StoredRow } from '../relational/stored-documents.js';
import { utcNow } from '../relational/timestamps.js';
import { keyValuesOf, trackedDocumentOf, type TrackedDocument } from '../relational/tracked-values.js';
import { checkAuthorizedTarget, checkIfMatch } from '../relational/write-preconditions.js';
import {
  cascadeLimitExceeded,
  changedDocument,
  dependentItemExists,
  keyChangeNotSupported,
  nonUniqueIdentity,
  notFound,
  resolvedOf,
  type ChangedDocument,
} from '../relational/write-rules.js';
import type { PostgresCatalog } from './catalog.js';
import { DeferredRowsLost, type ChangeStamps } from './change-stamps.js';
import type { PostgresDescriptorCache } from './descriptor-cache.js';
import { EarlyReferenceResolution, type AheadResolution } from './early-resolution.js';
import type { PostgresEdOrgClosure } from './edorg-closure.js';
import { PostgresGroupCommit } from './group-commit.js';
import { isConnectionLoss, isForeignKeyViolation, isTransientConflict, isUniqueViolation } from './pg-errors.js';
import { OpenGroups } from './open-groups.js';
import { prepared } from './prepared.js';
import { referrerResourceIds, referrersOf, type Referrer } from './reference-edges.js';
import type { PostgresReferenceResolver } from './reference-resolution.js';
import {
  ResourceWrites,
  type LockOrCreateOutcome,
  type NewRow,
  type RowChange,
  type RowScope,
} from './resource-writes.js';
import type { PostgresTableStatistics } from './table-statistics.js';
import { recordDeletion, recordKeyChange } from './tracked-change-log.js';
import { RetryWrite, WITHOUT_SAVEPOINT, type Committed, type WriteTransaction } from './write-transaction.js';

export interface PostgresDocumentWriterOptions {
  /** Most documents one identity update may rewrite by cascade. */
  readonly maxCascadeDocuments: number;
}

/** The parts of the store the writer works with. */
export interface PostgresWriterParts {
  readonly catalog: PostgresCatalog;
  readonly descriptors: PostgresDescriptorCache;
  readonly references: PostgresReferenceResolver;
  readonly edOrgs: PostgresEdOrgClosure;
  readonly statistics: PostgresTableStatistics;
}

/** A write with its references resolved and its stored body (links included) serialized. */
interface PreparedWrite {
  readonly write: DocumentWrite;
  readonly resolution: ResolvedReferences | UnresolvedReference;
  readonly bodyJson: string;
}

/** What a write did, its version still a slot until the commit numbers it. */
interface Written {
  readonly status: UpsertOutcome['status'];
  readonly id: DocumentId;
  readonly docId: number;
  readonly identityKey: string;
  readonly lastModifiedDate: string;
  /** The stored version of an unchanged document, or the slot of the new one. */
  readonly version: { readonly stored: number } | { readonly slot: number };
}

/** An upsert waiting in its resource's open group. */
interface GroupedUpsert {
  readonly write: DocumentWrite;
  readonly options: WriteOptions | undefined;
  readonly ahead: AheadResolution;
  readonly resolve: (outcome: UpsertOutcome) => void;
  readonly reject: (error: unknown) => void;
}

/** Run the upsert alone, in a batch of its own, once the group's batch has committed. */
const RUN_ALONE = 'run alone';

/** What a group's work did for one member. */
type GroupedOutcome = { readonly written: Written } | { readonly failure: StoreError } | typeof RUN_ALONE;

/**
 * The group's new items locked or inserted together. A failed statement (a concurrent insert of one of the keys, a
 * target deleted meanwhile, a superclass identity taken) runs the group's work again, where every member runs alone
 * and meets its own outcome.
 */
async function lockOrCreateTogether(
  writes: ResourceWrites,
  scope: RowScope,
  rows: readonly NewRow[],
): Promise<LockOrCreateOutcome[]> {
  if (rows.length === 0) return [];
  try {
    return await writes.lockOrCreate(scope, rows);
  } catch (error) {
    const batchLost = isConnectionLoss(error) || isTransientConflict(error) || error instanceof DeferredRowsLost;
    throw batchLost ? error : new RetryWrite(error);
  }
}

/** After a member's own refusal: a refusal that came from a failed statement has aborted the transaction. */
async function transactionStillUsable(client: pg.ClientBase, refusal: StoreError): Promise<void> {
  try {
    await client.query('SELECT 1');
  } catch {
    throw new RetryWrite(refusal);
  }
}

/** A delete refused by a referencing item; which resources refer is read after the rollback. */
class ReferencedDocument extends Error {
  constructor(
    readonly docId: number,
    readonly edgeTable: string,
  ) {
    super('The document is referenced');
  }
}

const DELETE_DOCUMENT = `DELETE FROM ${DOCUMENT_TABLE} WHERE doc_id = $1`;
const OWNER_OF = `SELECT ownership_token FROM ${DOCUMENT_OWNER_TABLE} WHERE doc_id = $1`;
const MAX_DELETE_ATTEMPTS = 3;

/** The item's preconditions, checked under the row lock: the authorized item, then If-Match. */
function checkPreconditions(writes: ResourceWrites, row: StoredRow, options: WriteOptions | undefined): void {
  checkAuthorizedTarget(row, writes.table.layout, options);
  checkIfMatch(etagOf(row.change_version), options);
}

function outcomeOf(written: Written, stamps: ChangeStamps): UpsertOutcome {
  const { version } = written;
  const changeVersion = 'stored' in version ? version.stored : stamps.versionOf(version.slot);
  return {
    status: written.status,
    id: written.id,
    etag: etagOf(changeVersion),
    lastModifiedDate: written.lastModifiedDate,
  };
}

export class PostgresDocumentWriter {
  readonly #writes = new Map<ResourceModel, ResourceWrites>();
  readonly #commits: PostgresGroupCommit;
  readonly #early: EarlyReferenceResolution;
  readonly #groups = new OpenGroups<ResourceModel, GroupedUpsert>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly registry: ModelRegistry,
    private readonly parts: PostgresWriterParts,
    private readonly options: PostgresDocumentWriterOptions,
  ) {
    this.#commits = new PostgresGroupCommit(pool);
    this.#early = new EarlyReferenceResolution(pool, parts.references);
  }

  /**
   * An upsert authorized as a new item joins the open group of its resource (open-groups.ts): the group's new items
   * are probed and inserted by one statement, which costs the client and the server far less per document than a
   * statement each. Any other upsert runs alone.
   */
  upsert(write: DocumentWrite, options?: WriteOptions): Promise<UpsertOutcome> {
    const ahead = this.#early.start(write);
    if (options?.authorizedTarget) return this.#upsertAlone(write, options, ahead);
    return new Promise((resolve, reject) =>
      this.#groups.join(write.resource, { write, options, ahead, resolve, reject }, (close) => {
        void this.#runGroup(close);
      }),
    );
  }

  async #upsertAlone(write: DocumentWrite, options: WriteOptions | undefined, ahead: AheadResolution) {
    const { value: written, stamps } = await this.#commits.run(
      async (transaction) => this.#upsertIn(transaction, await this.#prepare(transaction, write, ahead), options),
      WITHOUT_SAVEPOINT,
    );
    return this.#upserted(write.resource, written, stamps);
  }

  #upserted(resource: ResourceModel, written: Written, stamps: ChangeStamps): UpsertOutcome {
    if (written.status === 'created') {
      this.#remember(resource, written);
      this.parts.statistics.created(this.#writesOf(resource).table.layout.table);
    }
    return outcomeOf(written, stamps);
  }

  /** Runs a group's upserts in one work of a batch and settles them once it has committed. */
  async #runGroup(close: () => readonly GroupedUpsert[]): Promise<void> {
    let members: readonly GroupedUpsert[] | undefined;
    let committed: Committed<GroupedOutcome[]>;
    try {
      committed = await this.#commits.run((transaction) => {
        members = close();
        return this.#upsertGroup(transaction, members);
      }, WITHOUT_SAVEPOINT);
    } catch (error) {
      for (const member of members ?? close()) member.reject(error);
      return;
    }
    const { value: outcomes, stamps } = committed;
    outcomes.forEach((outcome, index) => {
      const { write, options, resolve, reject } = members![index]!;
      if (outcome === RUN_ALONE) this.#upsertAlone(write, options, this.#early.start(write)).then(resolve, reject);
      else if ('failure' in outcome) reject(outcome.failure);
      else resolve(this.#upserted(write.resource, outcome.written, stamps));
    });
  }

  /**
   * The group's upserts in one transaction: the new items whose references are resolved, one per natural key, locked
   * or inserted by one statement, then each member carried on as alone, in the group's order. A member's own refusal
   * fails it alone; a failed statement runs the work again, and then every member runs alone.
   */
  async #upsertGroup(transaction: WriteTransaction, members: readonly GroupedUpsert[]): Promise<GroupedOutcome[]> {
    if (members.length === 1) {
      const [{ write, options, ahead }] = members as [GroupedUpsert];
      return [{ written: await this.#upsertIn(transaction, await this.#prepare(transaction, write, ahead), options) }];
    }
    if (transaction.attempt > 1) return members.map(() => RUN_ALONE);
    const { client, stamps } = transaction;
    const writes = this.#writesOf(members[0]!.write.resource);
    const prepared: PreparedWrite[] = [];
    for (const { write, ahead } of members) prepared.push(await this.#prepare(transaction, write, ahead));
    const keys = prepared.map(({ write }) => writes.table.layout.identityKeyOf(write));
    const together = new Map<number, NewRow>();
    const takenKeys = new Set<string>();
    prepared.forEach((write, index) => {
      const key = keys[index]!;
      if ('missingTarget' in write.resolution || takenKeys.has(key)) return;
      takenKeys.add(key);
      together.set(index, this.#newRow(writes, key, write));
    });
    const found = await lockOrCreateTogether(writes, transaction, [...together.values()]);
    const foundOf = new Map([...together.keys()].map((index, at) => [index, found[at]!]));
    const outcomes: GroupedOutcome[] = [];
    let changed = false;
    for (const [index, { options }] of members.entries()) {
      let unchanged = false;
      const own: WriteTransaction = { ...transaction, unchanged: () => void (unchanged = true) };
      const checkpoint = stamps.checkpoint();
      try {
        const outcome = foundOf.get(index);
        const written =
          outcome === undefined
            ? await this.#upsertIn(own, prepared[index]!, options)
            : 'created' in outcome
              ? await this.#created(own, writes, together.get(index)!, outcome.created, prepared[index]!.write)
              : await this.#upsertFound(own, writes, keys[index]!, prepared[index]!, outcome.stored, options);
        outcomes.push({ written });
        changed ||= !unchanged;
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        stamps.rollBackTo(checkpoint, false);
        await transactionStillUsable(client, error);
        outcomes.push({ failure: error });
      }
    }
    if (!changed) transaction.unchanged();
    return outcomes;
  }

  /** One upsert in a transaction, its references resolved. */
  async #upsertIn(transaction: WriteTransaction, prepared: PreparedWrite, options?: WriteOptions): Promise<Written> {
    const writes = this.#writesOf(prepared.write.resource);
    const identityKey = writes.table.layout.identityKeyOf(prepared.write);
    // The common case, a new item that was authorized as one, probes and inserts in one statement.
    const existing =
      'missingTarget' in prepared.resolution || options?.authorizedTarget
        ? await writes.lockByKey(transaction, identityKey)
        : await this.#lockOrCreate(transaction, writes, identityKey, prepared);
    return this.#upsertFound(transaction, writes, identityKey, prepared, existing, options);
  }

  /** Carries an upsert on from what its natural key found: its own new item, the stored item, or none. */
  async #upsertFound(
    transaction: WriteTransaction,
    writes: ResourceWrites,
    identityKey: string,
    prepared: PreparedWrite,
    existing: StoredRow | Written | undefined,
    options: WriteOptions | undefined,
  ): Promise<Written> {
    if (existing && 'status' in existing) return existing;
    if (!existing) {
      checkAuthorizedTarget(undefined, writes.table.layout, options);
      return this.#create(transaction, writes, identityKey, prepared);
    }
    // If-Match only applies when the POST resolves to an existing item.
    checkPreconditions(writes, existing, options);
    return this.#replace(transaction, writes, existing, prepared);
  }

  async update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): Promise<WriteOutcome> {
    const ahead = this.#early.start(write);
    const { value: written, stamps } = await this.#commits.run(async (transaction) => {
      const prepared = await this.#prepare(transaction, write, ahead);
      const writes = this.#writesOf(write.resource);
      const existing = await writes.lockByUuid(transaction, id);
      if (!existing) throw notFound('update');
      checkPreconditions(writes, existing, options);
      const identityKey = writes.table.layout.identityKeyOf(write);
      if (identityKey !== existing.identity_key)
        return this.#changeIdentity(transaction, writes, existing, identityKey, prepared);
      return this.#replace(transaction, writes, existing, prepared);
    });
    const { id: writtenId, etag, lastModifiedDate } = outcomeOf(written, stamps);
    return { id: writtenId, etag, lastModifiedDate };
  }

  async delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): Promise<void> {
    const writes = this.#writesOf(resource);
    for (let attempt = 1; ; attempt++) {
      try {
        const { value: deleted } = await this.#commits.run((transaction) =>
          this.#deleteDocument(transaction, writes, id, options),
        );
        if (resource.isDescriptor) this.parts.descriptors.forget(writes.table.resourceId, deleted.identity_key);
        return;
      } catch (error) {
        if (!(error instanceof ReferencedDocument)) throw error;
        const ids = await referrerResourceIds(this.pool, error.edgeTable, error.docId);
        // The referrer went away before it could be named: the delete may succeed now.
        if (ids.length > 0 || attempt >= MAX_DELETE_ATTEMPTS)
          throw dependentItemExists(ids.map((resourceId) => this.parts.catalog.resourceById(resourceId).resourceName));
      }
    }
  }

  /** Inserts the descriptor values that are not stored yet, in one transaction; returns how many were added. */
  async seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): Promise<number> {
    const writes = this.#writesOf(resource);
    const { layout } = writes.table;
    const { value: created } = await this.#commits.run(async (transaction) => {
      const seeds = new Map<string, DocumentWrite>();
      for (const value of values) {
        const write = descriptorSeedWrite(this.registry, resource, value);
        const key = layout.identityKeyOf(write);
        if (!seeds.has(key)) seeds.set(key, write);
      }
      const stored = await writes.storedKeys(transaction, [...seeds.keys()]);
      const lastModified = utcNow();
      const rows = [...seeds]
        .filter(([key]) => !stored.has(key))
        .map(([identityKey, write]) => ({
          uuid: newDocumentId(),
          identityKey,
          body: write.body,
          bodyJson: JSON.stringify(write.body),
          lastModified,
        }));
      if (rows.length === 0) return [];
      const docIds = await this.#inserted(writes, () => writes.create(transaction, rows));
      return docIds.map((docId, index) => {
        writes.versionCreated(transaction, rows[index]!, docId);
        return { docId, identityKey: rows[index]!.identityKey };
      });
    });
    for (const { docId, identityKey } of created)
      this.parts.descriptors.remember(writes.table.resourceId, identityKey, docId);
    return created.length;
  }

  /** @param ahead the references resolved ahead of the transaction, good for the write's first run */
  async #prepare(transaction: WriteTransaction, write: DocumentWrite, ahead: AheadResolution): Promise<PreparedWrite> {
    const { client, stamps, attempt } = transaction;
    const { references } = this.parts;
    let resolution: ResolvedReferences | UnresolvedReference | undefined =
      attempt === 1 ? await ahead.value() : undefined;
    if (resolution === undefined) {
      await stamps.reveal(client, references.tablesRead(write));
      resolution = await references.resolve(client, write, attempt > 1);
    }
    const links = 'missingTarget' in resolution ? [] : resolution.links;
    return { write, resolution, bodyJson: JSON.stringify(withLinks(write.body, links)) };
  }

  async #create(
    transaction: WriteTransaction,
    writes: ResourceWrites,
    identityKey: string,
    prepared: PreparedWrite,
  ): Promise<Written> {
    const row = this.#newRow(writes, identityKey, prepared);
    const [docId] = await this.#inserted(writes, () => writes.create(transaction, [row]));
    return this.#created(transaction, writes, row, docId!, prepared.write);
  }

  /** The stored row of the write's natural key, locked; or, when there is none, the write inserted as a new item. */
  async #lockOrCreate(
    transaction: WriteTransaction,
    writes: ResourceWrites,
    identityKey: string,
    prepared: PreparedWrite,
  ): Promise<StoredRow | Written> {
    const row = this.#newRow(writes, identityKey, prepared);
    const [outcome] = await this.#inserted(writes, () => writes.lockOrCreate(transaction, [row]));
    if ('stored' in outcome!) return outcome.stored;
    return this.#created(transaction, writes, row, outcome!.created, prepared.write);
  }

  #newRow(writes: ResourceWrites, identityKey: string, prepared: PreparedWrite): NewRow {
    const resolved = resolvedOf(prepared.resolution);
    const { write } = prepared;
    if (writes.abstractTable !== undefined && !write.superclassIdentity)
      throw new Error(`A ${write.resource.resourceName} write must carry its superclass identity`);
    return {
      uuid: newDocumentId(),
      identityKey,
      body: write.body,
      bodyJson: prepared.bodyJson,
      lastModified: utcNow(),
      references: resolved,
      ...(write.ownershipTokenId === undefined ? {} : { ownershipTokenId: write.ownershipTokenId }),
      ...(write.superclassIdentity === undefined ? {} : { superclassKey: write.superclassIdentity.key }),
    };
  }

  async #created(
    transaction: WriteTransaction,
    writes: ResourceWrites,
    row: NewRow,
    docId: number,
    write: DocumentWrite,
  ): Promise<Written> {
    const slot = writes.versionCreated(transaction, row, docId);
    await this.parts.edOrgs.created(transaction.client, write.resource, write.body);
    const { uuid: id, identityKey, lastModified } = row;
    return { status: 'created', id, docId, identityKey, lastModifiedDate: lastModified, version: { slot } };
  }

  /**
   * Runs an insert. The superclass identity taken by another subclass's document is a conflict; any other unique
   * violation (another transaction inserted the same key first) or a foreign key violation (a reference target
   * deleted since it was resolved, or a stale cached descriptor) runs the whole write again. The resource row is
   * inserted before the superclass identity, so a concurrent insert of the same key fails on the resource row.
   */
  async #inserted<T>(writes: ResourceWrites, insert: () => Promise<T[]>): Promise<T[]> {
    try {
      return await insert();
    } catch (error) {
      const { abstractTable } = writes;
      const superclass = writes.table.layout.resource.superclass;
      if (superclass && abstractTable !== undefined && isUniqueViolation(error, abstractTable))
        throw nonUniqueIdentity(superclass.resourceName);
      if (isUniqueViolation(error) || isForeignKeyViolation(error)) throw new RetryWrite(error);
      throw error;
    }
  }

  /** Replaces the body when the stored body (links included) differs; otherwise writes nothing. */
  async #replace(
    transaction: WriteTransaction,
    writes: ResourceWrites,
    existing: StoredRow,
    prepared: PreparedWrite,
  ): Promise<Written> {
    const resolved = resolvedOf(prepared.resolution);
    const written = { id: existing.uuid, docId: existing.doc_id, identityKey: existing.identity_key };
    if (prepared.bodyJson === existing.body) {
      transaction.unchanged();
      const version = { stored: existing.change_version };
      return { ...written, status: 'unchanged', lastModifiedDate: existing.last_modified, version };
    }
    const { body } = prepared.write;
    const lastModified = utcNow();
    const change = { body, bodyJson: prepared.bodyJson, lastModified, references: resolved };
    const slot = await this.#rewrite(transaction, writes, existing.doc_id, change);
    await this.parts.edOrgs.updated(transaction.client, writes.table.layout.resource, body);
    return { ...written, status: 'updated', lastModifiedDate: lastModified, version: { slot } };
  }

  /**
   * Rewrites a stored row. A new natural key held by another document is refused: probed first, and a document
   * inserted with it concurrently fails the update on the unique key, the same conflict. A new edge to a target
   * deleted since it was resolved fails its foreign key: the write runs again. Returns the slot of the row's version.
   */
  async #rewrite(scope: RowScope, writes: ResourceWrites, docId: number, change: RowChange): Promise<number> {
    const { resourceName } = writes.table.layout.resource;
    if (change.identityKey !== undefined) {
      const holder = await writes.holderOf(scope, change.identityKey);
      if (holder !== undefined && holder !== docId) throw nonUniqueIdentity(resourceName);
    }
    try {
      return await writes.update(scope, docId, change);
    } catch (error) {
      if (isUniqueViolation(error)) throw nonUniqueIdentity(resourceName);
      if (isForeignKeyViolation(error)) throw new RetryWrite(error);
      throw error;
    }
  }

  /** PUT with a new natural key (contract §4.6): allowed on a few resources, and cascaded to every referrer. */
  async #changeIdentity(
    transaction: WriteTransaction,
    writes: ResourceWrites,
    existing: StoredRow,
    identityKey: string,
    prepared: PreparedWrite,
  ): Promise<Written> {
    const { resource } = writes.table.layout;
    if (!resource.allowIdentityUpdates) throw keyChangeNotSupported(resource);
    const resolved = resolvedOf(prepared.resolution);
    const { body, identity } = prepared.write;
    const lastModified = utcNow();
    const change = { body, bodyJson: prepared.bodyJson, lastModified, identityKey, references: resolved };
    const slot = await this.#rewrite(transaction, writes, existing.doc_id, change);
    await this.#recordKeyChange(transaction, writes, existing, body, lastModified);
    await this.#cascade(transaction, changedDocument(resource, existing.doc_id, existing.identity_key, identity));
    const written = { id: existing.uuid, docId: existing.doc_id, identityKey };
    return { ...written, status: 'updated', lastModifiedDate: lastModified, version: { slot } };
  }

  /**
   * Rewrites the referrers of each changed document, level by level; each level's referrers are locked in doc_id
   * order (per resource table) before any is rewritten, until no referrer's own identity changes.
   */
  async #cascade(transaction: WriteTransaction, root: ChangedDocument): Promise<void> {
    const pending = [root];
    let visited = 0;
    for (let index = 0; index < pending.length; index++) {
      const changed = pending[index]!;
      const referrers = await referrersOf(transaction.client, DOCUMENT_EDGE_TABLE, changed.docId);
      visited += referrers.length;
      if (visited > this.options.maxCascadeDocuments)
        throw cascadeLimitExceeded(this.options.maxCascadeDocuments, root.resource);
      const rows = await this.#lockReferrers(transaction, referrers);
      for (const referrer of referrers) {
        const row = rows.get(referrer.doc_id);
        if (!row) throw new Error(`Document ${referrer.doc_id} has an edge but no row`);
        const next = await this.#rewriteReferrer(transaction, referrer, row, changed);
        if (next) pending.push(next);
      }
    }
  }

  async #lockReferrers(scope: RowScope, referrers: readonly Referrer[]): Promise<Map<number, StoredRow>> {
    const byResource = new Map<number, number[]>();
    for (const { doc_id, resource_id } of referrers) {
      const docIds = byResource.get(resource_id) ?? [];
      docIds.push(doc_id);
      byResource.set(resource_id, docIds);
    }
    const rows = new Map<number, StoredRow>();
    for (const [resourceId, docIds] of byResource) {
      const writes = this.#writesOf(this.parts.catalog.resourceById(resourceId));
      for (const row of await writes.lockByDocIds(scope, docIds)) rows.set(row.doc_id, row);
    }
    return rows;
  }

  /** A new body and version for the referrer; its own identity change when the reference was part of it. */
  async #rewriteReferrer(
    transaction: WriteTransaction,
    referrer: Referrer,
    row: StoredRow,
    changed: ChangedDocument,
  ): Promise<ChangedDocument | undefined> {
    const resource = this.parts.catalog.resourceById(referrer.resource_id);
    const writes = this.#writesOf(resource);
    const body = JSON.parse(row.body) as Node;
    if (!rewriteReferences(this.registry, resource, body, changed)) return undefined;
    const change = { body, bodyJson: JSON.stringify(body), lastModified: utcNow() };
    const identity = this.registry.accessorsOf(resource).identityOf(body);
    if (identity.key === row.identity_key) {
      await this.#rewrite(transaction, writes, row.doc_id, change);
      return undefined;
    }
    await this.#rewrite(transaction, writes, row.doc_id, { ...change, identityKey: identity.key });
    await this.#recordKeyChange(transaction, writes, row, body, change.lastModified);
    return changedDocument(resource, row.doc_id, row.identity_key, identity);
  }

  async #recordKeyChange(
    { client, stamps }: WriteTransaction,
    writes: ResourceWrites,
    before: StoredRow,
    newBody: unknown,
    changedAt: string,
  ): Promise<void> {
    const { resource } = writes.table.layout;
    const document = await this.#tracked(client, writes, before);
    await recordKeyChange({ client, stamps, changedAt }, document, keyValuesOf(resource, newBody));
  }

  async #deleteDocument(
    { client, stamps }: WriteTransaction,
    writes: ResourceWrites,
    id: DocumentId,
    options: WriteOptions | undefined,
  ): Promise<StoredRow> {
    const existing = await writes.lockByUuid({ client, stamps }, id);
    if (!existing) throw notFound('delete');
    checkPreconditions(writes, existing, options);
    const { resource } = writes.table.layout;
    // Read before the delete takes the document's owner with it.
    const tracked = tracksChanges(resource) ? await this.#tracked(client, writes, existing) : undefined;
    try {
      // Cascades to the resource row, identity registrations and outgoing edges; RESTRICT on incoming edges throws.
      await client.query(prepared(DELETE_DOCUMENT, [existing.doc_id]));
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      throw new ReferencedDocument(
        existing.doc_id,
        resource.isDescriptor ? DESCRIPTOR_EDGE_TABLE : DOCUMENT_EDGE_TABLE,
      );
    }
    await this.parts.edOrgs.deleted(client, resource, JSON.parse(existing.body));
    if (tracked !== undefined) await recordDeletion({ client, stamps, changedAt: utcNow() }, tracked);
    return existing;
  }

  /** The document as a tracked change remembers it, with the ownership token it was created under. */
  async #tracked(client: pg.ClientBase, writes: ResourceWrites, row: StoredRow): Promise<TrackedDocument> {
    const { rows } = await client.query<{ ownership_token: string }>(prepared(OWNER_OF, [row.doc_id]));
    const owner = rows[0] === undefined ? undefined : Number(rows[0].ownership_token);
    return trackedDocumentOf(this.registry, writes.table.layout.resource, writes.table.resourceId, row, owner);
  }

  #writesOf(resource: ResourceModel): ResourceWrites {
    let writes = this.#writes.get(resource);
    if (!writes) {
      const { catalog } = this.parts;
      const superclass = resource.superclass;
      const abstractTable = superclass ? catalog.abstractLayoutOf(superclass.resourceName).table : undefined;
      writes = new ResourceWrites(catalog.tableOf(resource), abstractTable);
      this.#writes.set(resource, writes);
    }
    return writes;
  }

  #remember(resource: ResourceModel, written: Written): void {
    if (resource.isDescriptor)
      this.parts.descriptors.remember(this.#writesOf(resource).table.resourceId, written.identityKey, written.docId);
  }
}
