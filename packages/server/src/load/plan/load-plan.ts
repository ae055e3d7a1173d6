// The load plan: documents grouped by the model's dependency order (the ODS `/metadata/data/v3/dependencies` order),
// each group split into units, one per file holding resources of that order. Groups run one after the other.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { IndexedFile } from '../inputs/source-index.js';

export interface LoadUnit {
  /** Stable name of the unit for the resume checkpoint: `{order}:{file}`. */
  readonly key: string;
  readonly source: IndexedFile;
  readonly resources: ReadonlySet<ResourceModel>;
  readonly documents: number;
}

export interface LoadGroup {
  readonly order: number;
  readonly units: readonly LoadUnit[];
  readonly documents: number;
}

/** Resource → the order of its Create operation; resources the order leaves out (school years) come first. */
function createOrders(registry: ModelRegistry): (resource: ResourceModel) => number {
  const orders = new Map<string, number>();
  for (const entry of registry.dependencyOrder()) {
    if (entry.operations.includes('Create')) orders.set(entry.resource, entry.order);
  }
  return (resource) => orders.get(`/${resource.namespace}/${resource.endpoint}`) ?? 0;
}

export function planLoad(sources: readonly IndexedFile[], registry: ModelRegistry): LoadGroup[] {
  const orderOf = createOrders(registry);
  const units = new Map<number, LoadUnit[]>();
  for (const source of sources) {
    const byOrder = new Map<number, ResourceModel[]>();
    for (const resource of source.counts.keys()) {
      const order = orderOf(resource);
      byOrder.set(order, [...(byOrder.get(order) ?? []), resource]);
    }
    for (const [order, resources] of byOrder) {
      const documents = resources.reduce((sum, resource) => sum + (source.counts.get(resource) ?? 0), 0);
      const unit = { key: `${order}:${source.file.path}`, source, resources: new Set(resources), documents };
      units.set(order, [...(units.get(order) ?? []), unit]);
    }
  }
  return [...units.entries()]
    .sort(([a], [b]) => a - b)
    .map(([order, groupUnits]) => ({
      order,
      units: groupUnits,
      documents: groupUnits.reduce((sum, unit) => sum + unit.documents, 0),
    }));
}
