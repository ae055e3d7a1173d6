// Compiles a resource's descriptor reader: every descriptor URI in a document with its descriptor type.
import type { DescriptorUse, ResourceModel } from '../types.js';
import { compilePathCollector } from './path-collector.js';

export interface DocumentDescriptor {
  use: DescriptorUse;
  /** Concrete path of the value, e.g. `$.addresses[0].stateAbbreviationDescriptor`. */
  path: string;
  /** The URI as sent (`namespace#codeValue`). */
  uri: string;
}

export type DescriptorsReader = (document: unknown) => DocumentDescriptor[];

export function compileDescriptorsReader(resource: ResourceModel): DescriptorsReader {
  const readers = resource.descriptors.map((use) => {
    const collect = compilePathCollector(use.path);
    return (document: unknown, found: DocumentDescriptor[]) =>
      collect(document, (value, path) => {
        if (typeof value === 'string') found.push({ use, path, uri: value });
      });
  });
  return (document) => {
    const found: DocumentDescriptor[] = [];
    for (const read of readers) read(document, found);
    return found;
  };
}
