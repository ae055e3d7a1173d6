// The education organizations of token_info (contract §2.6): each one's name and concrete type, found among the stored
// documents, with its ancestors reached through the parent references of each type (school → local education agency
// → state education agency or education service center, community provider → community organization, …).
import {
  compilePathGetter,
  parseJsonPath,
  type ModelRegistry,
  type PathGetter,
  type ResourceModel,
} from '../../model/index.js';
import type { DocumentStore } from '../../store/store.js';

/** `education_organization_id`, `name_of_institution`, `type`, then `<type_snake>_id` per ancestor, nearest first. */
export type EducationOrganizationInfo = Readonly<Record<string, string | number>>;

interface EducationOrganizationType {
  readonly resource: ResourceModel;
  readonly idField: string;
  readonly parentIds: readonly PathGetter[];
}

interface FoundEducationOrganization {
  readonly resource: ResourceModel;
  readonly name: string;
  readonly parentIds: readonly number[];
}

const EDUCATION_ORGANIZATION = 'EducationOrganization';

function isRootReference(path: string): boolean {
  return parseJsonPath(path).length === 1;
}

/** The query field of the id the subclass renames to `educationOrganizationId`, e.g. `schoolId`. */
function idFieldOf(resource: ResourceModel): string {
  const idPath = resource.superclass?.identityRename?.from;
  const field = Object.entries(resource.queryFields).find(
    ([, paths]) => idPath !== undefined && paths.includes(idPath),
  );
  if (field === undefined) throw new Error(`${resource.resourceName} has no query field for its id`);
  return field[0];
}

function typesOf(registry: ModelRegistry): EducationOrganizationType[] {
  const subclasses = registry.subclassesOf(EDUCATION_ORGANIZATION);
  return subclasses.map((resource) => {
    const parentReferences = resource.references.filter(
      (reference) =>
        isRootReference(reference.path) &&
        registry
          .resolveTarget(reference.targetNamespace, reference.target)
          .some((target) => subclasses.includes(target)),
    );
    const parentIds = parentReferences.map((reference) => compilePathGetter(reference.fields[0]!.referencePath));
    return { resource, idField: idFieldOf(resource), parentIds };
  });
}

/** `edfi.School`, as the ODS names entity types. */
function typeNameOf(resource: ResourceModel): string {
  return `${resource.namespace.replace('-', '')}.${resource.resourceName}`;
}

/** `LocalEducationAgency` → `local_education_agency_id`. */
function ancestorKeyOf(resource: ResourceModel): string {
  return `${resource.resourceName.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase()}_id`;
}

export class EducationOrganizationDirectory {
  readonly #types: readonly EducationOrganizationType[];

  constructor(
    private readonly store: Pick<DocumentStore, 'list'>,
    registry: ModelRegistry,
  ) {
    this.#types = typesOf(registry);
  }

  /** The organizations found, in the order of the ids; ids with no stored organization are left out. */
  async describe(ids: readonly number[]): Promise<EducationOrganizationInfo[]> {
    const described: EducationOrganizationInfo[] = [];
    for (const id of ids) {
      const organization = await this.#find(id);
      if (organization !== undefined) described.push(await this.#describe(id, organization));
    }
    return described;
  }

  async #describe(id: number, organization: FoundEducationOrganization): Promise<EducationOrganizationInfo> {
    const info: Record<string, string | number> = {
      education_organization_id: id,
      name_of_institution: organization.name,
      type: typeNameOf(organization.resource),
    };
    const seen = new Set([id]);
    const queue = [...organization.parentIds];
    for (let parentId = queue.shift(); parentId !== undefined; parentId = queue.shift()) {
      if (seen.has(parentId)) continue;
      seen.add(parentId);
      const parent = await this.#find(parentId);
      if (parent === undefined) continue;
      info[ancestorKeyOf(parent.resource)] ??= parentId;
      queue.push(...parent.parentIds);
    }
    return info;
  }

  async #find(id: number): Promise<FoundEducationOrganization | undefined> {
    for (const { resource, idField, parentIds } of this.#types) {
      const query = { filters: [{ field: idField, value: id }], offset: 0, limit: 1, totalCount: false };
      const [document] = (await this.store.list(resource, query)).items;
      if (document === undefined) continue;
      const body = JSON.parse(document.bodyJson) as Record<string, unknown>;
      return {
        resource,
        name: String(body.nameOfInstitution ?? ''),
        parentIds: parentIds.map((parentIdOf) => parentIdOf(body)).filter((value) => typeof value === 'number'),
      };
    }
    return undefined;
  }
}
