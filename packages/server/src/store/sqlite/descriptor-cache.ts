// Every descriptor URI (case-folded) → doc_id, per descriptor resource, held in memory: answers validation's
// existence checks synchronously and resolves descriptor edges without a query. Loaded on open and kept current by
// this process's writes; other processes may write too, so a miss falls back to the database.
import type Database from 'better-sqlite3';
import type { ModelRegistry, ProjectNamespace } from '../../model/index.js';
import type { DescriptorLookup } from '../../model/validation/index.js';
import { DESCRIPTOR_TABLE, foldCase } from '../relational/table-layout.js';

interface DescriptorEntries {
  readonly resourceId: number;
  readonly docIds: Map<string, number>;
}

export class DescriptorCache implements DescriptorLookup {
  /** namespace → descriptor resource name → entries. */
  readonly #byName = new Map<string, Map<string, DescriptorEntries>>();
  readonly #byResourceId = new Map<number, DescriptorEntries>();
  readonly #find: Database.Statement<[number, string], number>;
  readonly #all: Database.Statement<[], { resource_id: number; identity_key: string; doc_id: number }>;

  constructor(db: Database.Database, registry: ModelRegistry, resourceIds: ReadonlyMap<string, number>) {
    for (const resource of registry.descriptorResources) {
      const resourceId = resourceIds.get(`${resource.namespace}/${resource.endpoint}`);
      if (resourceId === undefined) continue;
      const entries = { resourceId, docIds: new Map<string, number>() };
      this.#byResourceId.set(resourceId, entries);
      let names = this.#byName.get(resource.namespace);
      if (!names) this.#byName.set(resource.namespace, (names = new Map()));
      names.set(resource.resourceName, entries);
    }
    this.#find = db
      .prepare<[number, string], number>(
        `SELECT doc_id FROM ${DESCRIPTOR_TABLE} WHERE resource_id = ? AND identity_key = ?`,
      )
      .pluck();
    this.#all = db.prepare(`SELECT resource_id, identity_key, doc_id FROM ${DESCRIPTOR_TABLE}`);
  }

  load(): void {
    for (const entries of this.#byResourceId.values()) entries.docIds.clear();
    for (const row of this.#all.iterate())
      this.#byResourceId.get(row.resource_id)?.docIds.set(row.identity_key, row.doc_id);
  }

  exists(namespace: ProjectNamespace, descriptor: string, uri: string): boolean {
    return this.docIdOf(namespace, descriptor, uri) !== undefined;
  }

  docIdOf(namespace: string, descriptor: string, uri: string): number | undefined {
    const entries = this.#byName.get(namespace)?.get(descriptor);
    if (!entries) return undefined;
    const key = foldCase(uri);
    return entries.docIds.get(key) ?? this.#reload(entries, key);
  }

  remember(resourceId: number, key: string, docId: number): void {
    this.#byResourceId.get(resourceId)?.docIds.set(key, docId);
  }

  forget(resourceId: number, key: string): void {
    this.#byResourceId.get(resourceId)?.docIds.delete(key);
  }

  /** Re-reads one URI after another process may have deleted or re-created it. */
  refresh(namespace: string, descriptor: string, uri: string): void {
    const entries = this.#byName.get(namespace)?.get(descriptor);
    if (!entries) return;
    const key = foldCase(uri);
    entries.docIds.delete(key);
    this.#reload(entries, key);
  }

  #reload(entries: DescriptorEntries, key: string): number | undefined {
    const docId = this.#find.get(entries.resourceId, key);
    if (docId !== undefined) entries.docIds.set(key, docId);
    return docId;
  }
}
