// Which documents are education organizations and who their parents are, read from a body (storage design §3.6): an
// ed-org's parents are the ed-orgs its root references name (School → LEA, LEA → ESC/SEA, department → parent, …).
// Dialect-neutral; each store keeps its closure tables from what this finds.
import { compilePathGetter, type ModelRegistry, type PathGetter, type ResourceModel } from '../../model/index.js';

const EDUCATION_ORGANIZATION = 'EducationOrganization';

interface EdOrgShape {
  readonly idOf: PathGetter;
  readonly parentsOf: readonly PathGetter[];
}

/** An ed-org as its body names it: its id and its parents' ids, deduplicated and ascending. */
export interface EdOrgNode {
  readonly id: number;
  readonly parents: readonly number[];
}

function isEdOrgTarget(registry: ModelRegistry, resource: ResourceModel['references'][number]): boolean {
  if (resource.target === EDUCATION_ORGANIZATION) return true;
  const target = registry.getResourceByName(resource.target, resource.targetNamespace);
  return target?.superclass?.resourceName === EDUCATION_ORGANIZATION;
}

function edOrgShapeOf(registry: ModelRegistry, resource: ResourceModel): EdOrgShape | undefined {
  const idPath = resource.identityPaths[0];
  if (resource.superclass?.resourceName !== EDUCATION_ORGANIZATION || idPath === undefined) return undefined;
  const parents = resource.references.filter(
    (reference) => !reference.path.includes('[') && reference.fields.length === 1 && isEdOrgTarget(registry, reference),
  );
  return {
    idOf: compilePathGetter(idPath),
    parentsOf: parents.map((reference) => compilePathGetter(reference.fields[0]!.referencePath)),
  };
}

export function sameParents(before: readonly number[], after: readonly number[]): boolean {
  return before.length === after.length && before.every((parent, index) => parent === after[index]);
}

export class EdOrgHierarchy {
  readonly #shapes = new Map<ResourceModel, EdOrgShape | undefined>();

  constructor(private readonly registry: ModelRegistry) {}

  isEdOrg(resource: ResourceModel): boolean {
    return this.#shapeOf(resource) !== undefined;
  }

  /** Undefined when the resource is not an ed-org or the body has no id. */
  edOrgOf(resource: ResourceModel, body: unknown): EdOrgNode | undefined {
    const shape = this.#shapeOf(resource);
    if (shape === undefined) return undefined;
    const id = shape.idOf(body);
    if (typeof id !== 'number') return undefined;
    const parents = shape.parentsOf
      .map((get) => get(body))
      .filter((value): value is number => typeof value === 'number');
    return { id, parents: [...new Set(parents)].sort((a, b) => a - b) };
  }

  #shapeOf(resource: ResourceModel): EdOrgShape | undefined {
    if (!this.#shapes.has(resource)) this.#shapes.set(resource, edOrgShapeOf(this.registry, resource));
    return this.#shapes.get(resource);
  }
}
