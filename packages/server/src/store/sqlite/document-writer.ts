// The write path. References are resolved and the stored body serialized before the write lock is taken, and a write
// that changes nothing never takes it; every other upsert, update, delete or seeding batch is one short BEGIN IMMEDIATE
// transaction, so nothing partial is ever visible and writers in several processes hold the lock only to write.
// Deletions and identity changes are logged in `tracked_change` in the same transaction; an identity change cascades
// to every referrer (recursively where the reference is part of the referrer's identity).
import type Database from 'better-sqlite3';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import {
  tracksChanges,
  type DescriptorRow,
  type DocumentId,
  type DocumentWrite,
  type UpsertOutcome,
  type WriteOptions,
  type WriteOutcome,
} from '../store.js';
import type { DescriptorCache } from './descriptor-cache.js';
import { descriptorSeedWrite } from '../relational/descriptor-seeds.js';
import { newDocumentId } from '../relational/document-ids.js';
import type { DocumentRegistry } from './document-registry.js';
import type { EdgeTable, Referrer } from './reference-edges.js';
import { withLinks, type Node } from '../relational/reference-links.js';
import type { ReferenceResolver } from './reference-resolution.js';
import type { ResolvedReferences, UnresolvedReference } from '../relational/resolved-references.js';
import { rewriteReferences } from '../relational/reference-rewrite.js';
import type { ResourceTable } from './resource-table.js';
import { isConstraintViolation } from './sql-errors.js';
import { etagOf, type StoredRow } from '../relational/stored-documents.js';
import { checkAuthorizedTarget, checkIfMatch } from '../relational/write-preconditions.js';
import type { TableCatalog } from './table-catalog.js';
import type { TrackedChangeLog } from './tracked-change-log.js';
import type { EdOrgClosure } from './edorg-closure.js';
import { keyValuesOf, trackedDocumentOf, type TrackedDocument } from '../relational/tracked-values.js';
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

/** A write with its references resolved and its stored body (links included) serialized. */
interface PreparedWrite {
  readonly write: DocumentWrite;
  readonly resolution: ResolvedReferences | UnresolvedReference;
  readonly bodyJson: string;
}

interface Written {
  readonly outcome: UpsertOutcome;
  readonly docId: number;
  readonly identityKey: string;
}

export interface DocumentWriterOptions {
  /** Most documents one identity update may rewrite by cascade. */
  readonly maxCascadeDocuments: number;
}

/** The item's preconditions, checked under the write lock: the authorized item, then If-Match. */
function checkPreconditions(table: ResourceTable, row: StoredRow, options: WriteOptions | undefined): void {
  checkAuthorizedTarget(row, table.layout, options);
  checkIfMatch(etagOf(row.change_version), options);
}

function unchanged(row: StoredRow): UpsertOutcome {
  return { status: 'unchanged', id: row.uuid, etag: etagOf(row.change_version), lastModifiedDate: row.last_modified };
}

export class DocumentWriter {
  readonly #upsert: Database.Transaction<(prepared: PreparedWrite, options?: WriteOptions) => Written>;
  readonly #update: Database.Transaction<(id: DocumentId, prepared: PreparedWrite, options?: WriteOptions) => Written>;
  readonly #delete: Database.Transaction<(table: ResourceTable, id: DocumentId, options?: WriteOptions) => StoredRow>;
  readonly #seed: Database.Transaction<(table: ResourceTable, writes: readonly PreparedWrite[]) => Written[]>;

  constructor(
    db: Database.Database,
    private readonly registry: ModelRegistry,
    private readonly catalog: TableCatalog,
    private readonly documents: DocumentRegistry,
    private readonly edges: { readonly documents: EdgeTable; readonly descriptors: EdgeTable },
    private readonly references: ReferenceResolver,
    private readonly descriptors: DescriptorCache,
    private readonly changes: TrackedChangeLog,
    private readonly edOrgs: EdOrgClosure,
    private readonly options: DocumentWriterOptions,
  ) {
    this.#upsert = db.transaction((prepared, options) => this.#upsertDocument(prepared, options));
    this.#update = db.transaction((id, prepared, options) => this.#updateDocument(id, prepared, options));
    this.#delete = db.transaction((table, id, options) => this.#deleteDocument(table, id, options));
    this.#seed = db.transaction((table, writes) =>
      writes.flatMap((prepared) => {
        const key = table.layout.identityKeyOf(prepared.write);
        return table.findByKey.get(key) ? [] : [this.#create(table, key, prepared)];
      }),
    );
  }

  upsert(write: DocumentWrite, options?: WriteOptions): UpsertOutcome {
    const written = this.#written(write, (prepared) => this.#upsert.immediate(prepared, options));
    if (written.outcome.status === 'created') this.#remember(write.resource, written);
    return written.outcome;
  }

  update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): WriteOutcome {
    const { outcome } = this.#written(write, (prepared) => this.#update.immediate(id, prepared, options));
    return { id: outcome.id, etag: outcome.etag, lastModifiedDate: outcome.lastModifiedDate };
  }

  delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): void {
    const table = this.catalog.tableOf(resource);
    const deleted = this.#delete.immediate(table, id, options);
    if (resource.isDescriptor) this.descriptors.forget(table.resourceId, deleted.identity_key);
  }

  /** Inserts the descriptor values that are not stored yet, in one transaction; returns how many were added. */
  seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): number {
    const prepared = values.map((value) => this.#prepare(descriptorSeedWrite(this.registry, resource, value)));
    const created = this.#seed.immediate(this.catalog.tableOf(resource), prepared);
    for (const written of created) this.#remember(resource, written);
    return created.length;
  }

  #prepare(write: DocumentWrite): PreparedWrite {
    const resolution = this.references.resolve(write);
    const links = 'missingTarget' in resolution ? [] : resolution.links;
    return { write, resolution, bodyJson: JSON.stringify(withLinks(write.body, links)) };
  }

  /**
   * Prepares and writes, under the write lock the group commit holds (a write that changes nothing writes nothing). A
   * descriptor cached before another process deleted or re-created it fails an edge's foreign key; the write, rolled
   * back to its savepoint, is then prepared afresh and run once more.
   */
  #written(write: DocumentWrite, writeLocked: (prepared: PreparedWrite) => Written): Written {
    const attempt = () => writeLocked(this.#prepare(write));
    try {
      return attempt();
    } catch (error) {
      if (!isConstraintViolation(error, 'FOREIGNKEY')) throw error;
      this.references.refreshDescriptors(write);
      return attempt();
    }
  }

  #upsertDocument(prepared: PreparedWrite, options: WriteOptions | undefined): Written {
    const table = this.catalog.tableOf(prepared.write.resource);
    const identityKey = table.layout.identityKeyOf(prepared.write);
    // The probe runs under the write lock (BEGIN IMMEDIATE), so no other writer can insert this key before the
    // insert below: the unique-violation retry a PostgreSQL store needs cannot arise here.
    const existing = table.findByKey.get(identityKey);
    if (!existing) {
      checkAuthorizedTarget(undefined, table.layout, options);
      return this.#create(table, identityKey, prepared);
    }
    // If-Match only applies when the POST resolves to an existing item.
    checkPreconditions(table, existing, options);
    return this.#replace(table, existing, prepared);
  }

  #updateDocument(id: DocumentId, prepared: PreparedWrite, options: WriteOptions | undefined): Written {
    const table = this.catalog.tableOf(prepared.write.resource);
    const existing = table.findByUuid.get(id);
    if (!existing) throw notFound('update');
    checkPreconditions(table, existing, options);
    const identityKey = table.layout.identityKeyOf(prepared.write);
    if (identityKey !== existing.identity_key) return this.#changeIdentity(table, existing, identityKey, prepared);
    return this.#replace(table, existing, prepared);
  }

  /** PUT with a new natural key (contract §4.6): allowed on a few resources, and cascaded to every referrer. */
  #changeIdentity(table: ResourceTable, existing: StoredRow, identityKey: string, prepared: PreparedWrite): Written {
    const { resource } = table.layout;
    if (!resource.allowIdentityUpdates) throw keyChangeNotSupported(resource);
    const resolved = resolvedOf(prepared.resolution);
    this.#refuseTakenKey(table, identityKey, existing.doc_id);
    const { body, identity } = prepared.write;
    const stamp = this.documents.nextStamp();
    table.updateRowWithKey(existing.doc_id, identityKey, body, prepared.bodyJson, stamp);
    this.edges.documents.replace(existing.doc_id, resolved.documents);
    this.edges.descriptors.replace(existing.doc_id, resolved.descriptors);
    this.#recordKeyChange(table, existing, body);
    this.#cascade(changedDocument(resource, existing.doc_id, existing.identity_key, identity));
    const outcome: UpsertOutcome = {
      status: 'updated',
      id: existing.uuid,
      etag: etagOf(stamp.changeVersion),
      lastModifiedDate: stamp.lastModified,
    };
    return { outcome, docId: existing.doc_id, identityKey };
  }

  /**
   * Rewrites the referrers of each changed document, level by level and in doc_id order within a level (the lock
   * order a multi-writer store needs), until no referrer's own identity changes.
   */
  #cascade(root: ChangedDocument): void {
    const pending = [root];
    let visited = 0;
    for (let index = 0; index < pending.length; index++) {
      const changed = pending[index]!;
      const referrers = this.edges.documents.referrers(changed.docId);
      visited += referrers.length;
      if (visited > this.options.maxCascadeDocuments)
        throw cascadeLimitExceeded(this.options.maxCascadeDocuments, root.resource);
      for (const referrer of referrers) {
        const next = this.#rewriteReferrer(referrer, changed);
        if (next) pending.push(next);
      }
    }
  }

  /** A new body, change version and etag for the referrer; its own identity change when the reference was part of it. */
  #rewriteReferrer(referrer: Referrer, changed: ChangedDocument): ChangedDocument | undefined {
    const resource = this.catalog.resourceById(referrer.resource_id);
    const table = this.catalog.tableOf(resource);
    const row = table.findByDocId.get(referrer.doc_id);
    if (!row) throw new Error(`Document ${referrer.doc_id} has an edge but no row`);
    const body = JSON.parse(row.body) as Node;
    if (!rewriteReferences(this.registry, resource, body, changed)) return undefined;
    const bodyJson = JSON.stringify(body);
    const stamp = this.documents.nextStamp();
    const identity = this.registry.accessorsOf(resource).identityOf(body);
    if (identity.key === row.identity_key) {
      table.updateRow(row.doc_id, body, bodyJson, stamp);
      return undefined;
    }
    this.#refuseTakenKey(table, identity.key, row.doc_id);
    table.updateRowWithKey(row.doc_id, identity.key, body, bodyJson, stamp);
    this.#recordKeyChange(table, row, body);
    return changedDocument(resource, row.doc_id, row.identity_key, identity);
  }

  #refuseTakenKey(table: ResourceTable, identityKey: string, docId: number): void {
    const holder = table.findByKey.get(identityKey);
    if (holder && holder.doc_id !== docId) throw nonUniqueIdentity(table.layout.resource.resourceName);
  }

  #recordKeyChange(table: ResourceTable, before: StoredRow, newBody: unknown): void {
    const document = this.#tracked(table, before);
    this.changes.recordKeyChange(this.documents.nextStamp(), document, keyValuesOf(table.layout.resource, newBody));
  }

  /** The document as a tracked change remembers it: key values and securables of the stored body. */
  #tracked(table: ResourceTable, row: StoredRow): TrackedDocument {
    const owner = this.documents.ownerOf(row.doc_id);
    return trackedDocumentOf(this.registry, table.layout.resource, table.resourceId, row, owner);
  }

  #deleteDocument(table: ResourceTable, id: DocumentId, options: WriteOptions | undefined): StoredRow {
    const existing = table.findByUuid.get(id);
    if (!existing) throw notFound('delete');
    checkPreconditions(table, existing, options);
    // Read before the delete takes the document's owner with it.
    const tracked = tracksChanges(table.layout.resource) ? this.#tracked(table, existing) : undefined;
    try {
      this.documents.delete(existing.doc_id);
    } catch (error) {
      if (!isConstraintViolation(error, 'FOREIGNKEY', 'TRIGGER')) throw error;
      const edges = table.layout.resource.isDescriptor ? this.edges.descriptors : this.edges.documents;
      throw dependentItemExists(
        edges.referrerResourceIds(existing.doc_id).map((id) => this.catalog.resourceById(id).resourceName),
      );
    }
    this.edOrgs.deleted(table.layout.resource, JSON.parse(existing.body));
    if (tracked !== undefined) this.changes.recordDeletion(this.documents.nextStamp(), tracked);
    return existing;
  }

  #create(table: ResourceTable, identityKey: string, prepared: PreparedWrite): Written {
    const resolved = resolvedOf(prepared.resolution);
    const stamp = this.documents.nextStamp();
    const docId = stamp.changeVersion;
    const id = newDocumentId();
    this.documents.insert(docId, table.resourceId, id, prepared.write.ownershipTokenId);
    table.insertRow(docId, identityKey, prepared.write.body, prepared.bodyJson, stamp);
    this.edOrgs.created(table.layout.resource, prepared.write.body);
    this.#registerSuperclassIdentity(table, prepared.write, docId);
    this.edges.documents.insertAll(docId, resolved.documents);
    this.edges.descriptors.insertAll(docId, resolved.descriptors);
    const outcome: UpsertOutcome = {
      status: 'created',
      id,
      etag: etagOf(stamp.changeVersion),
      lastModifiedDate: stamp.lastModified,
    };
    return { outcome, docId, identityKey };
  }

  /** Replaces the body when the stored body (links included) differs; otherwise writes nothing. */
  #replace(table: ResourceTable, existing: StoredRow, prepared: PreparedWrite): Written {
    const resolved = resolvedOf(prepared.resolution);
    const written = { docId: existing.doc_id, identityKey: existing.identity_key };
    if (prepared.bodyJson === existing.body) return { ...written, outcome: unchanged(existing) };
    const stamp = this.documents.nextStamp();
    table.updateRow(existing.doc_id, prepared.write.body, prepared.bodyJson, stamp);
    this.edOrgs.updated(table.layout.resource, prepared.write.body);
    this.edges.documents.replace(existing.doc_id, resolved.documents);
    this.edges.descriptors.replace(existing.doc_id, resolved.descriptors);
    const outcome: UpsertOutcome = {
      status: 'updated',
      id: existing.uuid,
      etag: etagOf(stamp.changeVersion),
      lastModifiedDate: stamp.lastModified,
    };
    return { ...written, outcome };
  }

  #registerSuperclassIdentity(table: ResourceTable, write: DocumentWrite, docId: number): void {
    const superclass = write.resource.superclass;
    if (!superclass) return;
    if (!write.superclassIdentity)
      throw new Error(`A ${write.resource.resourceName} write must carry its superclass identity`);
    try {
      this.catalog
        .abstractTableOf(superclass.resourceName)
        .register(write.superclassIdentity.key, docId, table.resourceId);
    } catch (error) {
      if (!isConstraintViolation(error, 'PRIMARYKEY', 'UNIQUE')) throw error;
      throw nonUniqueIdentity(superclass.resourceName);
    }
  }

  #remember(resource: ResourceModel, written: Written): void {
    if (resource.isDescriptor)
      this.descriptors.remember(this.catalog.tableOf(resource).resourceId, written.identityKey, written.docId);
  }
}
