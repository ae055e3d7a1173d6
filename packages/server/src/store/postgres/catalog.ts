// Where each resource lives in the PostgreSQL store: its table layout and its `resource_type` id, both ways, and the
// abstract identity tables. Built once on open from the plan and the registered resource ids.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import { resourceKey, resourcesById, type LayoutPlan } from '../relational/schema-plan.js';
import type { AbstractIdentityLayout, TableLayout } from '../relational/table-layout.js';

export interface ResourceTable {
  readonly layout: TableLayout;
  /** The resource's id in `resource_type`, `document` and, for shared tables, the table's own `resource_id`. */
  readonly resourceId: number;
}

export class PostgresCatalog {
  /** By model object, so the hot path needs no key string. */
  readonly #tables = new Map<ResourceModel, ResourceTable>();
  readonly #resourcesById: ReadonlyMap<number, ResourceModel>;

  constructor(
    private readonly plan: LayoutPlan,
    readonly resourceIds: ReadonlyMap<string, number>,
    registry: ModelRegistry,
  ) {
    this.#resourcesById = resourcesById(registry, resourceIds);
  }

  tableOf(resource: ResourceModel): ResourceTable {
    const known = this.#tables.get(resource);
    if (known) return known;
    const key = resourceKey(resource);
    const layout = this.plan.layouts.get(key);
    const resourceId = this.resourceIds.get(key);
    if (!layout || resourceId === undefined) throw new Error(`Resource ${key} is not part of this store's model`);
    const table = { layout, resourceId };
    this.#tables.set(resource, table);
    return table;
  }

  abstractLayoutOf(abstractName: string): AbstractIdentityLayout {
    const layout = this.plan.abstractLayouts.get(abstractName);
    if (!layout) throw new Error(`Abstract resource ${abstractName} is not part of this store's model`);
    return layout;
  }

  resourceById(resourceId: number): ResourceModel {
    const resource = this.#resourcesById.get(resourceId);
    if (!resource) throw new Error(`Unknown resource id ${resourceId}`);
    return resource;
  }
}
