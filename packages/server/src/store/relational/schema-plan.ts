// The logical schema every SQL store shares (storage design §3.2): the fixed tables' names and each resource's
// layout, planned once from the model. Each dialect turns the plan into its own DDL.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import {
  abstractIdentityLayout,
  DESCRIPTOR_TABLE,
  tableLayoutOf,
  type AbstractIdentityLayout,
  type LayoutOptions,
  type TableLayout,
} from './table-layout.js';

export const DOCUMENT_TABLE = 'document';
export const RESOURCE_TYPE_TABLE = 'resource_type';
export const DOCUMENT_EDGE_TABLE = 'ref_edge';
export const DESCRIPTOR_EDGE_TABLE = 'descriptor_edge';
export const TRACKED_CHANGE_TABLE = 'tracked_change';
export const EDORG_PARENT_TABLE = 'edorg_parent';
export const EDORG_CLOSURE_TABLE = 'edorg_closure';
export const DOCUMENT_OWNER_TABLE = 'document_owner';
/** The `meta` row that holds the last change version handed out. */
export const CHANGE_VERSION_KEY = 'change_version';

/** How resources are keyed in `resource_type` and in the plan. */
export function resourceKey(resource: { readonly namespace: string; readonly endpoint: string }): string {
  return `${resource.namespace}/${resource.endpoint}`;
}

/** The resources by the ids a store registered for them (resources without an id are left out). */
export function resourcesById(
  registry: ModelRegistry,
  resourceIds: ReadonlyMap<string, number>,
): Map<number, ResourceModel> {
  const byId = new Map<number, ResourceModel>();
  for (const resource of registry.allResources) {
    const id = resourceIds.get(resourceKey(resource));
    if (id !== undefined) byId.set(id, resource);
  }
  return byId;
}

export interface LayoutPlan {
  /** By resource key; descriptor resources all map to the one shared `descriptor` layout. */
  readonly layouts: ReadonlyMap<string, TableLayout>;
  /** By abstract resource name (e.g. `EducationOrganization`). */
  readonly abstractLayouts: ReadonlyMap<string, AbstractIdentityLayout>;
}

export function planLayouts(registry: ModelRegistry, options: LayoutOptions = {}): LayoutPlan {
  const layouts = new Map<string, TableLayout>();
  for (const resource of registry.allResources) layouts.set(resourceKey(resource), tableLayoutOf(resource, options));
  const abstractLayouts = new Map<string, AbstractIdentityLayout>();
  for (const abstract of registry.abstractResources)
    abstractLayouts.set(abstract.resourceName, abstractIdentityLayout(abstract));
  if (![...layouts.values()].some((layout) => layout.table === DESCRIPTOR_TABLE))
    throw new Error('The model has no descriptor resources');
  return { layouts, abstractLayouts };
}
