// Finds the statements of a resource's table or an abstract identity table, preparing them on first use, and maps
// the stored resource ids back to resources.
import type Database from 'better-sqlite3';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { AbstractIdentityTable } from './abstract-identity-table.js';
import { ResourceTable } from './resource-table.js';
import { resourceKey, resourcesById } from '../relational/schema-plan.js';
import type { SchemaPlan } from './schema.js';

export class TableCatalog {
  readonly #tables = new Map<string, ResourceTable>();
  /** The same tables by model object, so the hot path needs no key string. */
  readonly #tablesByModel = new Map<ResourceModel, ResourceTable>();
  readonly #abstractTables = new Map<string, AbstractIdentityTable>();
  readonly #resourcesById: ReadonlyMap<number, ResourceModel>;

  constructor(
    private readonly db: Database.Database,
    private readonly plan: SchemaPlan,
    private readonly resourceIds: ReadonlyMap<string, number>,
    registry: ModelRegistry,
  ) {
    this.#resourcesById = resourcesById(registry, resourceIds);
  }

  tableOf(resource: ResourceModel): ResourceTable {
    const known = this.#tablesByModel.get(resource);
    if (known) return known;
    const key = resourceKey(resource);
    let table = this.#tables.get(key);
    if (!table) {
      const layout = this.plan.layouts.get(key);
      const id = this.resourceIds.get(key);
      if (!layout || id === undefined) throw new Error(`Resource ${key} is not part of this store's model`);
      table = new ResourceTable(this.db, layout, id);
      this.#tables.set(key, table);
    }
    this.#tablesByModel.set(resource, table);
    return table;
  }

  abstractTableOf(abstractName: string): AbstractIdentityTable {
    let table = this.#abstractTables.get(abstractName);
    if (!table) {
      const layout = this.plan.abstractLayouts.get(abstractName);
      if (!layout) throw new Error(`Abstract resource ${abstractName} is not part of this store's model`);
      table = new AbstractIdentityTable(this.db, layout);
      this.#abstractTables.set(abstractName, table);
    }
    return table;
  }

  resourceById(resourceId: number): ResourceModel {
    const resource = this.#resourcesById.get(resourceId);
    if (!resource) throw new Error(`Unknown resource id ${resourceId}`);
    return resource;
  }
}
