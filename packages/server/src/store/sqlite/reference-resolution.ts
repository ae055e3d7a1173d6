// Resolves a write's references (one natural-key index seek each, against the target's table or its abstract identity
// table) and descriptor URIs (from the in-memory cache) into edge targets and `link` objects. It runs before the write
// takes the database lock; the edges' foreign keys catch a target deleted in between.
import type { ModelRegistry, ReferenceModel } from '../../model/index.js';
import type { DocumentWrite } from '../store.js';
import type { DescriptorCache } from './descriptor-cache.js';
import type { LinkSite, ResourceLink } from '../relational/reference-links.js';
import { linkTo, type ResolvedReferences, type UnresolvedReference } from '../relational/resolved-references.js';
import type { TableCatalog } from './table-catalog.js';

interface ResolvedTarget {
  readonly docId: number;
  readonly link: ResourceLink;
}

type TargetLookup = (identityKey: string) => ResolvedTarget | undefined;

export class ReferenceResolver {
  readonly #lookups = new Map<ReferenceModel, TargetLookup>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly catalog: TableCatalog,
    private readonly descriptors: DescriptorCache,
  ) {}

  resolve(write: DocumentWrite): ResolvedReferences | UnresolvedReference {
    const documents = new Set<number>();
    const links: LinkSite[] = [];
    for (const { reference, path, targetIdentity } of write.references) {
      const target = this.#lookupOf(reference)(targetIdentity.key);
      if (!target) return { missingTarget: reference.target };
      documents.add(target.docId);
      links.push({ path, link: target.link });
    }
    const descriptors = new Set<number>();
    for (const { use, uri } of write.descriptors) {
      const docId = this.descriptors.docIdOf(use.descriptorNamespace, use.descriptor, uri);
      if (docId === undefined) return { missingTarget: use.descriptor };
      descriptors.add(docId);
    }
    return { documents, descriptors, links };
  }

  /** Re-reads the write's descriptors after a foreign key showed a cached one is stale. */
  refreshDescriptors(write: DocumentWrite): void {
    for (const { use, uri } of write.descriptors)
      this.descriptors.refresh(use.descriptorNamespace, use.descriptor, uri);
  }

  #lookupOf(reference: ReferenceModel): TargetLookup {
    let lookup = this.#lookups.get(reference);
    if (!lookup) {
      lookup = this.#compile(reference);
      this.#lookups.set(reference, lookup);
    }
    return lookup;
  }

  #compile(reference: ReferenceModel): TargetLookup {
    if (reference.targetIsAbstract) {
      const { resolve } = this.catalog.abstractTableOf(reference.target);
      return (key) => {
        const row = resolve.get(key);
        return row && { docId: row.doc_id, link: linkTo(this.catalog.resourceById(row.resource_id), row.uuid) };
      };
    }
    const target = this.registry.getResourceByName(reference.target, reference.targetNamespace);
    if (!target) throw new Error(`Unknown reference target ${reference.targetNamespace}/${reference.target}`);
    const { resolve } = this.catalog.tableOf(target);
    return (key) => {
      const row = resolve.get(key);
      return row && { docId: row.doc_id, link: linkTo(target, row.uuid) };
    };
  }
}
