// Stores generated documents together with everything they reference: one minimal target document per referenced
// resource (created on first need, recursively), so generated references resolve and key-unified values agree.
import { getModelRegistry, type ReferenceModel, type ResourceModel } from '../../src/model/index.js';
import type { JsonObject } from '../../src/model/validation/index.js';
import type { Store, UpsertOutcome } from '../../src/store/store.js';
import { fullDocument, minimalDocument } from '../../src/testing/index.js';
import { ensureDescriptorValues } from '../support/descriptor-values.js';
import { documentWrite } from './document-writes.js';

const registry = getModelRegistry();

/** The subclass that stands in for an abstract reference target. */
const preferredSubclass: Record<string, string> = {
  EducationOrganization: 'schools',
  GeneralStudentProgramAssociation: 'studentProgramAssociations',
};

export type DocumentMode = 'minimal' | 'full';

export class ReferenceTargets {
  readonly #targets = new Map<string, Promise<JsonObject>>();

  constructor(private readonly store: Store) {}

  /** Seeds every default descriptor value of the model. */
  async seedDefaultDescriptors(): Promise<void> {
    for (const resource of registry.descriptorResources) {
      const values = registry.descriptorValuesOf(resource.resourceName);
      if (resource.namespace === 'ed-fi' && values.length > 0) await this.store.seedDescriptors(resource, values);
    }
  }

  /** A generated document of `resource` whose references all point at stored targets (not stored itself). */
  async document(resource: ResourceModel, mode: DocumentMode, seed = 1): Promise<JsonObject> {
    const generate = mode === 'full' ? fullDocument : minimalDocument;
    const needed = new Set<ReferenceModel>();
    generate(resource, ({ reference }) => void needed.add(reference), { seed });
    const targets = new Map<ReferenceModel, JsonObject>();
    for (const reference of needed) targets.set(reference, await this.#targetOf(reference));
    const document = generate(resource, ({ reference }) => targets.get(reference), { seed });
    // Descriptors without default values get generated URIs; those become stored descriptors too.
    await ensureDescriptorValues(this.store, registry, resource, document);
    return document;
  }

  /** Generates and stores a document of `resource` with its targets. */
  async create(resource: ResourceModel, mode: DocumentMode, seed = 1): Promise<{ body: JsonObject } & UpsertOutcome> {
    const body = await this.document(resource, mode, seed);
    return { body, ...(await this.store.upsert(documentWrite(resource, body))) };
  }

  async #targetOf(reference: ReferenceModel): Promise<JsonObject> {
    if (!reference.targetIsAbstract) {
      const target = registry.getResourceByName(reference.target, reference.targetNamespace);
      if (!target) throw new Error(`Unknown resource ${reference.targetNamespace}/${reference.target}`);
      return this.#stored(target);
    }
    const endpoint = preferredSubclass[reference.target];
    const subclass = endpoint ? registry.getResource('ed-fi', endpoint) : registry.subclassesOf(reference.target)[0];
    if (!subclass) throw new Error(`No subclass for ${reference.target}`);
    const document = await this.#stored(subclass);
    const rename = subclass.superclass?.identityRename;
    // The abstract identity names the subclass's key by the superclass's name (schoolId → educationOrganizationId).
    return rename ? { ...document, [rename.to.slice(2)]: document[rename.from.slice(2)]! } : document;
  }

  #stored(resource: ResourceModel): Promise<JsonObject> {
    const key = `${resource.namespace}/${resource.endpoint}`;
    let target = this.#targets.get(key);
    if (!target) {
      target = this.create(resource, 'minimal').then(({ body }) => body);
      this.#targets.set(key, target);
    }
    return target;
  }
}
