// What resolving a write's references yields, whatever the dialect: the edge targets and the `link` objects, or the
// first target that does not exist.
import type { ResourceModel } from '../../model/index.js';
import type { LinkSite, ResourceLink } from './reference-links.js';

export interface ResolvedReferences {
  /** doc_ids of the referenced documents, deduplicated: the document's `ref_edge` set. */
  readonly documents: Set<number>;
  /** doc_ids of the referenced descriptors: the document's `descriptor_edge` set. */
  readonly descriptors: Set<number>;
  readonly links: LinkSite[];
}

export interface UnresolvedReference {
  /** The first reference (then descriptor) target that does not exist, by resource name. */
  readonly missingTarget: string;
}

export function linkTo(resource: ResourceModel, uuid: string): ResourceLink {
  return { rel: resource.resourceName, href: `/${resource.namespace}/${resource.endpoint}/${uuid}` };
}
