// Load order as the ODS `/metadata/data/v3/dependencies` document reports it: a graph of references (abstract
// targets expanded to their subclasses) and descriptor uses, cycles broken at optional references, schoolYearTypes
// left out, group numbers by longest prerequisite chain, and people's Update placed after their authorizing associations.
import type { ResourceModel } from './types.js';

export type DependencyOperation = 'Create' | 'Update';

export interface DependencyEntry {
  /** `/{namespace}/{endpoint}`. */
  resource: string;
  /** 1 = no prerequisites; otherwise 1 + the highest order of a prerequisite. */
  order: number;
  operations: DependencyOperation[];
}

export interface DependencyGraphSource {
  resources: readonly ResourceModel[];
  resolveTarget(namespace: string, resourceName: string): ResourceModel[];
}

/** Updating a person needs a relationship first, so their Update entry follows these associations. */
const PERSON_AUTHORIZING_ASSOCIATIONS: Record<string, string[]> = {
  '/ed-fi/students': ['/ed-fi/studentSchoolAssociations'],
  '/ed-fi/staffs': [
    '/ed-fi/staffEducationOrganizationAssignmentAssociations',
    '/ed-fi/staffEducationOrganizationEmploymentAssociations',
  ],
  '/ed-fi/contacts': ['/ed-fi/studentContactAssociations', '/ed-fi/studentSchoolAssociations'],
};

function resourcePath(resource: ResourceModel): string {
  return `/${resource.namespace}/${resource.endpoint}`;
}

/** Prerequisite → whether every dependency on it is optional (a "soft" edge that may be cut to break a cycle). */
type Prerequisites = Map<ResourceModel, boolean>;

function buildGraph(source: DependencyGraphSource, vertices: Set<ResourceModel>): Map<ResourceModel, Prerequisites> {
  const graph = new Map<ResourceModel, Prerequisites>();
  for (const resource of vertices) {
    const prerequisites: Prerequisites = new Map();
    const add = (target: ResourceModel, isSoft: boolean): void => {
      if (target === resource || !vertices.has(target)) return;
      prerequisites.set(target, (prerequisites.get(target) ?? true) && isSoft);
    };
    for (const reference of resource.references) {
      for (const target of source.resolveTarget(reference.targetNamespace, reference.target))
        add(target, !reference.required);
    }
    for (const use of resource.descriptors) {
      for (const target of source.resolveTarget(use.descriptorNamespace, use.descriptor)) add(target, false);
    }
    graph.set(resource, prerequisites);
  }
  return graph;
}

/** A cycle as a vertex list where each vertex depends on the next and the last depends on the first. */
function findCycle(graph: Map<ResourceModel, Prerequisites>): ResourceModel[] | undefined {
  const done = new Set<ResourceModel>();
  const stack: ResourceModel[] = [];
  const onStack = new Set<ResourceModel>();
  const visit = (resource: ResourceModel): ResourceModel[] | undefined => {
    if (onStack.has(resource)) return stack.slice(stack.indexOf(resource));
    if (done.has(resource)) return undefined;
    stack.push(resource);
    onStack.add(resource);
    for (const prerequisite of graph.get(resource)?.keys() ?? []) {
      const cycle = visit(prerequisite);
      if (cycle) return cycle;
    }
    stack.pop();
    onStack.delete(resource);
    done.add(resource);
    return undefined;
  };
  for (const resource of graph.keys()) {
    const cycle = visit(resource);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Cuts, for each cycle, the last soft edge along it (as the ODS does); a cycle of hard edges is a model error. */
function breakCycles(graph: Map<ResourceModel, Prerequisites>): void {
  for (let cycle = findCycle(graph); cycle; cycle = findCycle(graph)) {
    const edges = cycle.map((dependent, index) => ({ dependent, prerequisite: cycle[(index + 1) % cycle.length]! }));
    const soft = edges
      .reverse()
      .find(({ dependent, prerequisite }) => graph.get(dependent)?.get(prerequisite) === true);
    if (!soft) throw new Error(`Unbreakable dependency cycle: ${cycle.map(resourcePath).join(' -> ')}`);
    graph.get(soft.dependent)?.delete(soft.prerequisite);
  }
}

function compareOrdinal(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function computeDependencyOrder(source: DependencyGraphSource): DependencyEntry[] {
  const vertices = new Set(source.resources.filter((resource) => !resource.isSchoolYearEnumeration));
  const graph = buildGraph(source, vertices);
  breakCycles(graph);

  const orders = new Map<ResourceModel, number>();
  const orderOf = (resource: ResourceModel): number => {
    let order = orders.get(resource);
    if (order === undefined) {
      order = 1;
      for (const prerequisite of graph.get(resource)?.keys() ?? []) order = Math.max(order, orderOf(prerequisite) + 1);
      orders.set(resource, order);
    }
    return order;
  };

  const byPath = new Map([...vertices].map((resource) => [resourcePath(resource), resource]));
  const entries: DependencyEntry[] = [];
  for (const resource of vertices) {
    const path = resourcePath(resource);
    const associations = PERSON_AUTHORIZING_ASSOCIATIONS[path];
    if (!associations) {
      entries.push({ resource: path, order: orderOf(resource), operations: ['Create', 'Update'] });
      continue;
    }
    entries.push({ resource: path, order: orderOf(resource), operations: ['Create'] });
    const authorizedAfter = Math.max(
      ...associations.map((association) => {
        const prerequisite = byPath.get(association);
        if (!prerequisite) throw new Error(`Unknown authorizing association ${association}`);
        return orderOf(prerequisite);
      }),
    );
    entries.push({ resource: path, order: authorizedAfter + 1, operations: ['Update'] });
  }
  return entries.sort((a, b) => a.order - b.order || compareOrdinal(a.resource, b.resource));
}
