// The store interface the API layer uses; SQL lives only in its implementations (sqlite/, later postgres/).

import type {
  DocumentDescriptor,
  DocumentIdentity,
  DocumentReference,
  DocumentSecurables,
  ResourceModel,
} from '../model/index.js';
import type { DescriptorLookup } from '../model/validation/index.js';

/** The API `id` of a document: 32 lowercase hex digits. */
export type DocumentId = string;

/** What the API layer hands the store for an insert or update, extracted once from the canonical document. */
export interface DocumentWrite {
  readonly resource: ResourceModel;
  /** The canonical body without `id`, `_etag`, `_lastModifiedDate` and `link` objects. */
  readonly body: Record<string, unknown>;
  readonly identity: DocumentIdentity;
  /** The identity as seen through an abstract superclass (education organizations, general student program associations). */
  readonly superclassIdentity?: DocumentIdentity;
  /** Complete references only; partial optional references were rejected or dropped by validation. */
  readonly references: readonly DocumentReference[];
  readonly descriptors: readonly DocumentDescriptor[];
  readonly securables: DocumentSecurables;
}

/** A stored document as read back, ready to render. */
export interface StoredDocument {
  readonly id: DocumentId;
  /** The canonical body as JSON text, with `link` objects on references, without server fields. */
  readonly bodyJson: string;
  readonly etag: string;
  /** ISO-8601 UTC with up to 7 fractional digits, e.g. `2024-01-13T02:11:20.5566791Z`. */
  readonly lastModifiedDate: string;
  readonly changeVersion: number;
}

export interface WriteOutcome {
  readonly id: DocumentId;
  readonly etag: string;
  readonly lastModifiedDate: string;
}

/** `created` → 201, `updated` and `unchanged` → 200 (an unchanged POST keeps its etag and change version). */
export interface UpsertOutcome extends WriteOutcome {
  readonly status: 'created' | 'updated' | 'unchanged';
}

export interface WriteOptions {
  /** The `If-Match` value with quotes trimmed; a mismatch with the stored etag fails the write. */
  readonly ifMatch?: string;
}

/** One equality filter of a list query: a query field and the value(s) already coerced to the field's type. */
export interface QueryFilter {
  readonly field: string;
  readonly value: string | number | boolean;
}

export interface ListQuery {
  readonly filters: readonly QueryFilter[];
  readonly offset: number;
  readonly limit: number;
  readonly totalCount: boolean;
}

export interface ListResult {
  readonly items: readonly StoredDocument[];
  /** Present when `totalCount` was asked for. */
  readonly totalCount?: number;
}

export interface DescriptorRow {
  readonly namespace: string;
  readonly codeValue: string;
  readonly shortDescription: string;
  readonly description?: string;
  readonly effectiveBeginDate?: string;
  readonly effectiveEndDate?: string;
}

export interface ApiClient {
  readonly key: string;
  readonly name: string;
  /** A salted slow hash of the secret (never the secret itself). */
  readonly secretHash: string;
  readonly active: boolean;
  readonly createdAt: string;
}

export interface AccessTokenRecord {
  /** SHA-256 hex of the opaque token; the token itself is never stored. */
  readonly tokenHash: string;
  readonly clientKey: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/**
 * Data errors a write can raise; the API layer maps each to its problem-details response. Every failed write leaves
 * nothing behind (one transaction per write).
 */
export type StoreErrorKind =
  | 'not-found'
  | 'optimistic-lock-failed'
  | 'unresolved-reference'
  | 'dependent-item-exists'
  | 'non-unique-identity'
  | 'key-change-not-supported';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    message: string,
    /** Resource names involved: the missing reference target, or the referencing resources of a blocked delete. */
    readonly resourceNames: readonly string[] = [],
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export interface Store {
  /** Creates or migrates the schema for the model; seeds nothing. Idempotent. */
  open(): Promise<void>;
  /** Flushes everything to the main file (SQLite: WAL checkpoint) and closes. */
  close(): Promise<void>;
  /** True when the store holds no documents and no clients (first start). */
  isEmpty(): Promise<boolean>;

  /** POST: insert by natural key, or replace the document with that key (409 cases raise StoreError). */
  upsert(write: DocumentWrite, options?: WriteOptions): Promise<UpsertOutcome>;
  /** PUT: replace the document with this id; a changed identity raises `key-change-not-supported` for now. */
  update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): Promise<WriteOutcome>;
  /** DELETE: raises `dependent-item-exists` naming the referencing resources. */
  delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): Promise<void>;
  get(resource: ResourceModel, id: DocumentId): Promise<StoredDocument | undefined>;
  list(resource: ResourceModel, query: ListQuery): Promise<ListResult>;

  /** Existence of descriptor URIs, answered synchronously from memory (case-insensitive). */
  readonly descriptors: DescriptorLookup;
  /** Inserts descriptor values that are not there yet (first-start seeding); returns how many were added. */
  seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): Promise<number>;

  createClient(client: ApiClient): Promise<void>;
  findClient(key: string): Promise<ApiClient | undefined>;
  listClients(): Promise<readonly ApiClient[]>;
  saveAccessToken(token: AccessTokenRecord): Promise<void>;
  /** The token if it exists and has not expired at `now`. */
  findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined>;
}
