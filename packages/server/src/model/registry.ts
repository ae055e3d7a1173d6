// The typed model registry: resource look-ups, abstract resources, load order, default data and compiled accessors.
import { compileResourceAccessors, type ResourceAccessors } from './accessors/resource-accessors.js';
import type { TargetIdentity } from './accessors/references.js';
import { computeDependencyOrder, type DependencyEntry } from './dependency-order.js';
import type { ModelData } from './load-model.js';
import { withOwnNamespaceSecurable } from './namespace-securables.js';
import type {
  AbstractResourceModel,
  ClaimsFile,
  DescriptorValue,
  ExtensionModel,
  ExtensionProject,
  ProjectNamespace,
  ReferenceModel,
  ResourceModel,
  SchoolYear,
} from './types.js';

export class ModelRegistry {
  /** Every resource, descriptors included, sorted by namespace then endpoint. */
  readonly allResources: readonly ResourceModel[];
  /** Non-descriptor resources. */
  readonly resources: readonly ResourceModel[];
  readonly descriptorResources: readonly ResourceModel[];
  readonly abstractResources: readonly AbstractResourceModel[];
  /** The extension projects served (TPDM, and the optional ones given), by namespace. */
  readonly extensionProjects: readonly ExtensionProject[];
  readonly schoolYears: readonly SchoolYear[];
  readonly claims: ClaimsFile;

  readonly #byEndpoint = new Map<string, ResourceModel>();
  readonly #byName = new Map<string, ResourceModel>();
  readonly #abstractByName = new Map<string, AbstractResourceModel>();
  readonly #descriptorValues: Record<string, DescriptorValue[]>;
  readonly #accessors = new Map<ResourceModel, ResourceAccessors>();
  #dependencyOrder: DependencyEntry[] | undefined;

  /** The optional extensions served (sorted); the Data Standard and TPDM are always served. */
  readonly extensions: readonly ProjectNamespace[];
  /** The models of the served extensions that were added to the store (not shipped): what its migrations record. */
  readonly addedExtensions: readonly ExtensionModel[];

  constructor(
    data: ModelData,
    extensions: readonly ProjectNamespace[] = [],
    addedExtensions: readonly ExtensionModel[] = [],
  ) {
    this.extensions = extensions;
    this.addedExtensions = addedExtensions;
    this.allResources = data.resources.resources.map(withOwnNamespaceSecurable);
    this.resources = this.allResources.filter((resource) => !resource.isDescriptor);
    this.descriptorResources = this.allResources.filter((resource) => resource.isDescriptor);
    this.abstractResources = data.resources.abstractResources;
    this.extensionProjects = data.resources.extensionProjects ?? [];
    this.schoolYears = data.schoolYears.schoolYears;
    this.claims = data.claims;
    this.#descriptorValues = data.descriptors.values;
    for (const resource of this.allResources) {
      this.#byEndpoint.set(endpointKey(resource.namespace, resource.endpoint), resource);
      this.#byName.set(nameKey(resource.namespace, resource.resourceName), resource);
    }
    for (const abstract of this.abstractResources) this.#abstractByName.set(abstract.resourceName, abstract);
  }

  /** Endpoint look-up; the namespace and endpoint compare case-insensitively, as ODS routes do. */
  getResource(namespace: string, endpoint: string): ResourceModel | undefined {
    return this.#byEndpoint.get(endpointKey(namespace, endpoint));
  }

  /** Look-up by PascalCase resource name; without a namespace, ed-fi wins over tpdm. */
  getResourceByName(resourceName: string, namespace?: ProjectNamespace): ResourceModel | undefined {
    if (namespace) return this.#byName.get(nameKey(namespace, resourceName));
    return this.#byName.get(nameKey('ed-fi', resourceName)) ?? this.#byName.get(nameKey('tpdm', resourceName));
  }

  getAbstractResource(resourceName: string): AbstractResourceModel | undefined {
    return this.#abstractByName.get(resourceName);
  }

  /** Concrete subclasses of an abstract resource (empty for unknown names). */
  subclassesOf(abstractName: string): ResourceModel[] {
    return (this.#abstractByName.get(abstractName)?.subclasses ?? []).map((subclass) =>
      this.#required(subclass.namespace, subclass.endpoint),
    );
  }

  /** The concrete resources a reference target may name: the resource itself, or an abstract's subclasses. */
  resolveTarget(namespace: string, resourceName: string): ResourceModel[] {
    if (this.#abstractByName.has(resourceName)) return this.subclassesOf(resourceName);
    const resource = this.#byName.get(nameKey(namespace, resourceName));
    return resource ? [resource] : [];
  }

  /** Default descriptor values of a descriptor resource (by resource name); empty when none ship. */
  descriptorValuesOf(descriptorName: string): readonly DescriptorValue[] {
    return this.#descriptorValues[descriptorName] ?? [];
  }

  dependencyOrder(): readonly DependencyEntry[] {
    this.#dependencyOrder ??= computeDependencyOrder({
      resources: this.allResources,
      resolveTarget: (namespace, resourceName) => this.resolveTarget(namespace, resourceName),
    });
    return this.#dependencyOrder;
  }

  /** Compiled readers of a resource's documents, built on first use and kept. */
  accessorsOf(resource: ResourceModel): ResourceAccessors {
    let accessors = this.#accessors.get(resource);
    if (!accessors) {
      const superclass = resource.superclass ? this.#abstractByName.get(resource.superclass.resourceName) : undefined;
      accessors = compileResourceAccessors(resource, superclass, (reference) => this.#targetIdentity(reference));
      this.#accessors.set(resource, accessors);
    }
    return accessors;
  }

  #targetIdentity(reference: ReferenceModel): TargetIdentity {
    const abstract = reference.targetIsAbstract ? this.#abstractByName.get(reference.target) : undefined;
    if (abstract) {
      const subclass = this.subclassesOf(abstract.resourceName)[0];
      const subclassDescriptors = new Set(subclass?.descriptors.map((use) => use.path));
      return {
        identityPaths: abstract.identityPaths,
        descriptorPaths: new Set(abstract.identityPaths.filter((path) => subclassDescriptors.has(path))),
      };
    }
    const target = this.#byName.get(nameKey(reference.targetNamespace, reference.target));
    if (!target) throw new Error(`Unknown reference target ${reference.targetNamespace}/${reference.target}`);
    return { identityPaths: target.identityPaths, descriptorPaths: new Set(target.descriptors.map((use) => use.path)) };
  }

  #required(namespace: string, endpoint: string): ResourceModel {
    const resource = this.getResource(namespace, endpoint);
    if (!resource) throw new Error(`Unknown resource ${namespace}/${endpoint}`);
    return resource;
  }
}

function endpointKey(namespace: string, endpoint: string): string {
  return `${namespace.toLowerCase()}/${endpoint.toLowerCase()}`;
}

function nameKey(namespace: string, resourceName: string): string {
  return `${namespace}:${resourceName}`;
}
