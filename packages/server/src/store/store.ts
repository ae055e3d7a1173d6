// The store interface the API layer uses; SQL lives only in its implementations (sqlite/, later postgres/).

import type {
  ClaimSetGrant,
  DocumentDescriptor,
  DocumentIdentity,
  DocumentReference,
  DocumentSecurables,
  ExtensionModel,
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
  /** The creating client's ownership token, stamped on the document when the write creates it. */
  readonly ownershipTokenId?: number;
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
  /** The internal document id: insertion-ordered, never reused; what page tokens range over. */
  readonly docId: number;
}

/** A stored document read together with the answer to an access filter. */
export interface AuthorizedDocument {
  readonly document: StoredDocument;
  /** Whether the document passes the filter; a failing item is checked again in detail to explain the refusal. */
  readonly authorized: boolean;
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

/**
 * The item a write was authorized against, as the caller read it: the document and its natural key. Every securable
 * element of the model is part of the natural key (checked by a model test), and ownership is fixed when a document is
 * created, so the same document with the same key authorizes the same way, whatever else changed in it.
 */
export interface AuthorizedTarget {
  readonly id: DocumentId;
  /** The natural key as read: what `identityKeyOf` of the resource's layout reads (identity, descriptor body). */
  readonly key: Pick<DocumentWrite, 'identity' | 'body'>;
  /**
   * The etag as read, when authorization also read values outside the key (`ResponsibilitySchoolId`, say): the
   * write then needs the item unchanged, not only its key.
   */
  readonly etag?: string;
}

export interface WriteOptions {
  /** The `If-Match` value with quotes trimmed; a mismatch with the stored etag fails the write. */
  readonly ifMatch?: string;
  /**
   * The item the caller authorized the write against (by natural key for an upsert, by id for an update or delete), or
   * null when it found none. Checked inside the write, under the write's lock: when another writer created, deleted,
   * re-created or re-keyed the item in between, the write fails with `authorized-state-changed` and changes nothing,
   * so an item is never written on the strength of an authorization of another state.
   */
  readonly authorizedTarget?: AuthorizedTarget | null;
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
  readonly changeVersions?: ChangeVersionRange;
  /** Cursor paging: only documents whose internal id lies in the range. */
  readonly docIds?: DocIdRange;
  /** Only these documents (by API id): what a composite's filter path selected (contract §9.2). */
  readonly documentIds?: readonly DocumentId[];
  /** Only the documents the caller is authorized for. */
  readonly access?: AccessFilter;
}

/**
 * How one relationship-based strategy relates an item's securable subjects to the caller's education organizations
 * (contract §8.4); a subject kind the rule leaves out is not checked.
 */
export interface RelationshipRule {
  /** `descendants`: the item's ed-org lies at or below a caller's; `ancestors` (Inverted): at or above. */
  readonly educationOrganizations: 'none' | 'descendants' | 'ancestors';
  /** `enrollment`: through StudentSchoolAssociation; `responsibility`: through the responsibility association. */
  readonly students: 'none' | 'enrollment' | 'responsibility';
  readonly staffs: boolean;
  readonly contacts: boolean;
}

/** The authorization a read applies in the store: every subject of one rule related (rules OR-ed), AND namespaces. */
export interface AccessFilter {
  readonly educationOrganizationIds: readonly number[];
  /** OR-ed; empty means no relationship restriction. */
  readonly relationships: readonly RelationshipRule[];
  /** When present, every namespace of the item must start with one of these (case-insensitive). */
  readonly namespacePrefixes?: readonly string[];
  /**
   * When present, only documents created under one of these ownership tokens; tombstones by the owner they keep
   * (those recorded before owners were kept have none, and are left out like unowned documents).
   */
  readonly ownershipTokenIds?: readonly number[];
}

/** How a single securable value is related to the caller's education organizations. */
export type SubjectRelation =
  'edOrgDescendant' | 'edOrgAncestor' | 'studentEnrollment' | 'studentResponsibility' | 'staff' | 'contact';

export interface SubjectProbe {
  readonly relation: SubjectRelation;
  readonly value: string | number;
}

/** Inclusive bounds on a document's current change version (contract §4.3); an absent bound is open. */
export interface ChangeVersionRange {
  readonly min?: number;
  readonly max?: number;
}

/** An inclusive range of internal document ids: what one page token covers (contract §5.1). */
export interface DocIdRange {
  readonly min: number;
  readonly max: number;
}

/** Partitions of a filtered collection (contract §5.3): each holds `max(ceil(matching / count), minimumSize)` items. */
export interface PartitionQuery {
  readonly filters: readonly QueryFilter[];
  readonly changeVersions?: ChangeVersionRange;
  readonly count: number;
  readonly minimumSize: number;
  readonly access?: AccessFilter;
}

/** A page of `/deletes` or `/keyChanges`, ordered by change version. */
export interface TrackedChangeQuery {
  readonly changeVersions?: ChangeVersionRange;
  readonly offset: number;
  readonly limit: number;
  readonly totalCount: boolean;
  /** Authorizes each entry on the securable values kept with it, people related through live or deleted associations. */
  readonly access?: AccessFilter;
}

/**
 * A natural key under the resource's flattened query-parameter names (`schoolId`, not `schoolReference.schoolId`),
 * descriptors as URIs and dates as `yyyy-MM-dd`, as the document held them.
 */
export type KeyValues = Readonly<Record<string, string | number | boolean>>;

/** The securable values a document had when it was deleted or changed key: what ReadChanges authorizes on. */
export interface TrackedSecurables {
  /** By authorization name, e.g. `SchoolId`. */
  readonly educationOrganizationIds: Readonly<Record<string, number>>;
  readonly studentUniqueIds: readonly string[];
  readonly staffUniqueIds: readonly string[];
  readonly contactUniqueIds: readonly string[];
  readonly namespaces: readonly string[];
  /** The ownership token the document was created under, kept so that OwnershipBased filters see its tombstone. */
  readonly ownershipTokenId?: number;
}

export interface DeletedDocument {
  readonly id: DocumentId;
  readonly changeVersion: number;
  /** The natural key at deletion. */
  readonly keyValues: KeyValues;
  readonly securables: TrackedSecurables;
}

/** The key changes of one document within a window, merged: the earliest old key, the latest new key and version. */
export interface KeyChange {
  readonly id: DocumentId;
  readonly changeVersion: number;
  readonly oldKeyValues: KeyValues;
  readonly newKeyValues: KeyValues;
  /** As they were before the earliest change. */
  readonly securables: TrackedSecurables;
}

export interface TrackedChangeList<T> {
  readonly items: readonly T[];
  /** Present when `totalCount` was asked for. */
  readonly totalCount?: number;
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
  /** The one education organization a token requested with a `scope` is narrowed to (contract §2.1). */
  readonly educationOrganizationId?: number;
}

export interface SaveAccessTokenOptions {
  /** Refuses the token when the client already holds this many unexpired tokens (contract §2.3 row 12). */
  readonly perClientLimit?: number;
  /** Epoch milliseconds; default the current time. */
  readonly now?: number;
}

/** What an API client's application grants (contract §8.1), as given when a client joins a new application. */
export interface ApplicationDefinition {
  readonly vendorName: string;
  /** The vendor's prefixes, for NamespaceBased authorization. */
  readonly namespacePrefixes: readonly string[];
  readonly applicationName: string;
  readonly claimSetName: string;
  readonly educationOrganizationIds: readonly number[];
  /** Assigned profile names (data policies, contract §9.1). */
  readonly profileNames: readonly string[];
}

/** A stored application; its id doubles as the ownership token of its clients. */
export interface ClientApplication extends ApplicationDefinition {
  readonly applicationId: number;
}

/** The named ownership tokens a new client gets (contract §8.1); found by name, created when new. */
export interface OwnershipTokenNames {
  /** The token the client's documents are stamped with; default its application's own token. */
  readonly creator?: string;
  /** Further tokens whose documents the client may access. */
  readonly accessible?: readonly string[];
}

/** A client's ownership tokens by name, as administration shows them. */
export interface ClientTokenNames {
  /** The token its documents are stamped with (the one it was given, else its application's); null without either. */
  readonly creator: string | null;
  /** Further tokens whose documents it may access. */
  readonly accessible: readonly string[];
}

/** The ownership tokens a client holds, by id. */
export interface ClientOwnership {
  /** The token its documents are stamped with: the one it was given, else its application's. */
  readonly ownershipTokenId: number;
  /** Every token whose documents it may access, its own first. */
  readonly accessibleOwnershipTokenIds: readonly number[];
}

/** What `clients update` may change in an application; absent fields stay as they are. */
export interface ApplicationChanges {
  readonly claimSetName?: string;
  readonly educationOrganizationIds?: readonly number[];
}

/** A claim set the implementer imported (beside the shipped ones of the model's claims file). */
export interface ClaimSetDefinition {
  readonly name: string;
  /**
   * The grants by resource claim, each claim named as the model's claims file names it: per granted action, its
   * authorization strategy overrides (empty: the claim's default strategies apply).
   */
  readonly resourceClaims: Readonly<Record<string, ClaimSetGrant>>;
}

/** What `deleteClaimSet` did: an application holding the claim set keeps it from being deleted. */
export type ClaimSetDeletion = 'deleted' | 'unknown' | 'in-use';

/** An API client as administration sees it. */
export interface ClientDetails {
  readonly client: ApiClient;
  /** Undefined for a client created without an application (stores from before applications). */
  readonly application: ClientApplication | undefined;
  /** Unexpired access tokens. */
  readonly liveTokens: number;
  readonly ownershipTokens: ClientTokenNames;
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
  | 'key-change-not-supported'
  | 'cascade-limit-exceeded'
  /** The item is no longer the one the caller authorized (see `WriteOptions.authorizedTarget`). */
  | 'authorized-state-changed'
  /** The session's snapshot was released for its age or for pinning too much (see StoreOptions). */
  | 'snapshot-expired';

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

/** SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100), and the file system's ENOSPC, by their `code`. */
const STORAGE_FULL_CODES: ReadonlySet<unknown> = new Set(['SQLITE_FULL', '53100', 'ENOSPC']);

/**
 * Whether a store failed because its disk (or database size limit) is full, whichever store: the transaction was
 * rolled back, and the same request succeeds once space is freed, without a restart.
 */
export function isStorageFull(error: unknown): boolean {
  return error instanceof Error && STORAGE_FULL_CODES.has((error as { code?: unknown }).code);
}

/** Whether a database holds this model's schema (contract between `migrate` and `open`). */
export type SchemaStatus =
  /** No schema at all: a new database, or a file that does not exist yet. */
  | 'empty'
  /** The schema this code and model expect. */
  | 'current'
  /** An older schema version or another model: `migrate` brings it up to date. */
  | 'outdated';

/** What `migrate` did. */
export type MigrationOutcome = 'created' | 'upgraded' | 'current';

/** Raised by `open` when the schema is missing or older than this code expects. */
export class StoreSchemaError extends Error {
  constructor(
    readonly status: Exclude<SchemaStatus, 'current'>,
    message: string,
  ) {
    super(message);
    this.name = 'StoreSchemaError';
  }
}

/**
 * Schema and connection lifecycle. `migrate` is separate from `open` so that several nodes starting together never
 * race on the schema: one `migrate` runs (serialized across processes by the database), every node then `open`s.
 */
export interface StoreLifecycle {
  /** Whether the database holds this model's schema; usable before `open`. */
  schemaStatus(): Promise<SchemaStatus>;
  /**
   * The optional extensions (`sample`, …) the store's last migration recorded, so every node serves the same set;
   * undefined for a store without a schema. Usable before `open`.
   */
  servedExtensions(): Promise<readonly string[] | undefined>;
  /**
   * The models of the extensions added to the store from their folders (`edfi-api extensions add <folder>`), which its
   * migrations record so that every node merges them into the model it serves; undefined for a store without a
   * schema. Usable before `open`.
   */
  addedExtensions(): Promise<readonly ExtensionModel[] | undefined>;
  /**
   * Creates or upgrades the schema for the model, idempotently and serialized across processes; seeds nothing
   * (seeding is set-up's job). Usable before `open`; a refused upgrade (a table that needs a real migration) throws.
   */
  migrate(): Promise<MigrationOutcome>;
  /** Connects to a database whose schema is current; raises StoreSchemaError for an empty or outdated one. */
  open(): Promise<void>;
  /** Flushes what the store buffers (SQLite: WAL checkpoint) and closes; pending writes finish first. */
  close(): Promise<void>;
  /** True when the store holds no documents and no clients (first start). */
  isEmpty(): Promise<boolean>;
  /**
   * After a bulk load: brings what the query planner knows of the data up to date, so the first queries after the load
   * are planned for the rows it wrote instead of for empty tables.
   */
  refreshStatistics(): Promise<void>;
}

/** The data API's documents: writes by natural key or id, reads by id, lists and partitions. */
export interface DocumentStore {
  /** POST: insert by natural key, or replace the document with that key (409 cases raise StoreError). */
  upsert(write: DocumentWrite, options?: WriteOptions): Promise<UpsertOutcome>;
  /**
   * PUT: replace the document with this id. A changed identity raises `key-change-not-supported` unless the resource
   * allows identity updates; then it cascades to every referrer (`non-unique-identity` on a collision,
   * `cascade-limit-exceeded` past the store's fan-out limit), all in one transaction.
   */
  update(id: DocumentId, write: DocumentWrite, options?: WriteOptions): Promise<WriteOutcome>;
  /** DELETE: raises `dependent-item-exists` naming the referencing resources. */
  delete(resource: ResourceModel, id: DocumentId, options?: WriteOptions): Promise<void>;
  get(resource: ResourceModel, id: DocumentId): Promise<StoredDocument | undefined>;
  /** GET by id for a restricted caller: the document and whether it passes `access`, read in one step. */
  getAuthorized(resource: ResourceModel, id: DocumentId, access: AccessFilter): Promise<AuthorizedDocument | undefined>;
  /** The stored document with the write's natural key: what a POST would replace. */
  findByIdentity(write: DocumentWrite): Promise<StoredDocument | undefined>;
  list(resource: ResourceModel, query: ListQuery): Promise<ListResult>;
  /** The first document id of each partition, ascending; empty when nothing matches. */
  partitionStarts(resource: ResourceModel, query: PartitionQuery): Promise<number[]>;
}

/** Change queries (contract §4): the version watermark, the tracked deletions and key changes, snapshots. */
export interface ChangeFeed {
  /**
   * The newest change version a reader may rely on: every change with a version at or below it is committed and
   * visible, so a consumer that syncs up to it never misses a change that commits later (storage design L12).
   */
  newestChangeVersion(): Promise<number>;
  /** Deletions in the window, without those whose natural key exists again. */
  deletes(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<DeletedDocument>>;
  keyChanges(resource: ResourceModel, query: TrackedChangeQuery): Promise<TrackedChangeList<KeyChange>>;
  /**
   * The consistent point-in-time reads of a sync session (contract §4.7), opened on the session's first use and kept
   * while it is used; undefined when this store keeps no snapshots.
   */
  snapshot(session: string, options?: SnapshotOptions): Promise<SnapshotReads | undefined>;
}

/** What authorization asks of stored data beyond the item itself (contract §8.4). */
export interface AuthorizationProbes {
  /** The ownership token the document was created under; undefined for none (or no such document). */
  ownershipTokenOf(id: DocumentId): Promise<number | undefined>;
  /** For each probe, whether its value is related to one of the education organizations (contract §8.4). */
  relatedSubjects(educationOrganizationIds: readonly number[], probes: readonly SubjectProbe[]): Promise<boolean[]>;
}

/** Descriptor values: existence for validation, and first-start seeding. */
export interface DescriptorStore {
  /** Existence of descriptor URIs (case-insensitive), asked once per document. */
  readonly descriptors: DescriptorLookup;
  /** Inserts descriptor values that are not there yet (first-start seeding); returns how many were added. */
  seedDescriptors(resource: ResourceModel, values: readonly DescriptorRow[]): Promise<number>;
}

/** API clients with their vendors and applications (contract §8.1). */
export interface ClientAdministration {
  /**
   * Adds a client, with the application it joins: the vendor and the application are found by name, and created from
   * the definition when new (an existing one is joined as stored). Without an application the client has none.
   */
  createClient(client: ApiClient, application?: ApplicationDefinition, ownership?: OwnershipTokenNames): Promise<void>;
  /** The client's ownership tokens; undefined for an unknown key, or a client with neither application nor token. */
  findClientOwnership(key: string): Promise<ClientOwnership | undefined>;
  findClient(key: string): Promise<ApiClient | undefined>;
  listClients(): Promise<readonly ApiClient[]>;
  /** The vendor's namespace prefixes; undefined for an unknown vendor. */
  findVendorNamespacePrefixes(vendorName: string): Promise<readonly string[] | undefined>;
  findApplication(vendorName: string, applicationName: string): Promise<ClientApplication | undefined>;
  /** The client's application; undefined for an unknown key or a client without one. */
  findClientApplication(key: string): Promise<ClientApplication | undefined>;
  /** Every client, by key, with its application and its unexpired tokens at `now`. */
  listClientDetails(now: number): Promise<readonly ClientDetails[]>;
  /** Deactivates the client and deletes its tokens; how many tokens went, or undefined for an unknown key. */
  revokeClient(key: string): Promise<number | undefined>;
  /** Changes the client's application (and so every client of it); undefined for an unknown key or no application. */
  updateClientApplication(key: string, changes: ApplicationChanges): Promise<ClientApplication | undefined>;
}

/** Imported claim sets, kept with the clients so that every node serving the store sees the same ones. */
export interface ClaimSetAdministration {
  /** Adds the claim sets, or replaces those of the same names, all in one transaction. */
  saveClaimSets(claimSets: readonly ClaimSetDefinition[]): Promise<void>;
  /** By exact name. */
  findClaimSet(name: string): Promise<ClaimSetDefinition | undefined>;
  /** Sorted by name. */
  listClaimSets(): Promise<readonly ClaimSetDefinition[]>;
  deleteClaimSet(name: string): Promise<ClaimSetDeletion>;
}

/** A profile (data policy, contract §9.1) as imported: its name and its ODS profile XML definition. */
export interface StoredProfile {
  readonly name: string;
  /** A `<Profiles>` document holding this one profile. */
  readonly definition: string;
}

/** Profile definitions; names are unique without regard to case. */
export interface ProfileStore {
  /** Adds the profiles, replacing any of the same names, all in one transaction. */
  saveProfiles(profiles: readonly StoredProfile[]): Promise<void>;
  /** Every profile, by name. */
  listProfiles(): Promise<readonly StoredProfile[]>;
  /** Whether a profile of that name was there to delete. */
  deleteProfile(name: string): Promise<boolean>;
}

/** Opaque access tokens (contract §2). */
export interface TokenStore {
  /** Deletes expired tokens, then saves this one unless the client is at its limit; false when refused. */
  saveAccessToken(token: AccessTokenRecord, options?: SaveAccessTokenOptions): Promise<boolean>;
  /** The token if it exists, has not expired at `now` and belongs to an active client. */
  findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | undefined>;
}

/** Everything a store offers; callers ask for the roles they use. */
export interface Store
  extends
    StoreLifecycle,
    DocumentStore,
    ChangeFeed,
    AuthorizationProbes,
    DescriptorStore,
    ClientAdministration,
    ProfileStore,
    ClaimSetAdministration,
    TokenStore {}

/** The reads a snapshot serves, as of the moment it was opened. */
export type SnapshotReads = Pick<DocumentStore, 'get' | 'getAuthorized' | 'list' | 'partitionStarts'> &
  Pick<ChangeFeed, 'newestChangeVersion' | 'deletes' | 'keyChanges'>;

export interface SnapshotOptions {
  /** Replace the session's snapshot with a new one taken now. */
  readonly fresh?: boolean;
}

/** Whether deletions and key changes of the resource are tracked: all but the school-year enumeration (contract §4.4). */
export function tracksChanges(resource: ResourceModel): boolean {
  return !resource.isSchoolYearEnumeration;
}

/** Limits every store implementation honours. */
export interface StoreOptions {
  /** Most documents one identity update may rewrite by cascade; default 100,000. */
  readonly maxCascadeDocuments?: number;
  /** Snapshot sessions kept at once (the least recently used goes first); 0 disables snapshots. Default 16. */
  readonly maxSnapshots?: number;
  /** A snapshot unused this long is released; default 5 minutes. */
  readonly snapshotIdleMs?: number;
  /** A snapshot older than this is released however much it is used; default 1 hour. */
  readonly snapshotMaxAgeMs?: number;
  /**
   * SQLite: once the WAL passes this size while snapshots are open, the oldest is released (its read transaction is
   * what stops checkpoints); default 1 GiB. PostgreSQL has no WAL bound (a REPEATABLE READ snapshot holds back
   * vacuum, not the WAL): only the age limits it.
   */
  readonly snapshotMaxWalBytes?: number;
}
