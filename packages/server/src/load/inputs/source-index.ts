// The first pass over the inputs: which resources each file holds and how many documents (so files can be read again
// per dependency order), and for XML the key values of elements with an XML id (so `ref="…"` references resolve).
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { InterchangeMappings } from '../xml/interchange-mapping.js';
import { readInterchange } from '../xml/interchange-reader.js';
import { IdrefTable } from '../xml/idref-table.js';
import type { InputFile } from './input-files.js';
import { countJsonLines } from './jsonl-reader.js';
import { jsonlResourceOf } from './jsonl-resource.js';

export interface IndexedFile {
  readonly file: InputFile;
  /** Documents per resource. */
  readonly counts: ReadonlyMap<ResourceModel, number>;
  /** Top-level XML elements of the interchange schemas that are not documents (reference declarations), by name. */
  readonly notDocuments: ReadonlyMap<string, number>;
  /** Top-level XML elements the interchange schemas do not have, by name: not loaded. */
  readonly unknownElements: ReadonlyMap<string, number>;
  readonly idrefs?: IdrefTable;
  /** Why the file cannot be loaded (unreadable, malformed XML, unknown resource). */
  readonly error?: string;
}

function increment<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

async function indexXml(file: InputFile, registry: ModelRegistry, mappings: InterchangeMappings): Promise<IndexedFile> {
  const counts = new Map<ResourceModel, number>();
  const notDocuments = new Map<string, number>();
  const unknownElements = new Map<string, number>();
  const idrefs = new IdrefTable();
  for await (const element of readInterchange(file.path, mappings, (_name, xmlId) => xmlId !== undefined)) {
    const resource = element.mapping && registry.getResource(element.mapping.namespace, element.mapping.endpoint);
    if (!resource) {
      increment(element.name in mappings.notDocuments ? notDocuments : unknownElements, element.name);
      continue;
    }
    increment(counts, resource);
    if (element.built && element.xmlId !== undefined) idrefs.add(element.xmlId, resource, element.built);
  }
  idrefs.compact();
  return { file, counts, notDocuments, unknownElements, idrefs };
}

async function indexJsonl(file: InputFile, registry: ModelRegistry): Promise<IndexedFile> {
  const resource = jsonlResourceOf(file.path, registry);
  if (!resource) {
    const error = 'the file name names no resource: use {endpoint}.jsonl or {namespace}.{endpoint}.jsonl';
    return { file, counts: new Map(), notDocuments: new Map(), unknownElements: new Map(), error };
  }
  const counts = new Map([[resource, await countJsonLines(file.path)]]);
  return { file, counts, notDocuments: new Map(), unknownElements: new Map() };
}

export async function indexInputFile(
  file: InputFile,
  registry: ModelRegistry,
  mappings: InterchangeMappings,
): Promise<IndexedFile> {
  try {
    return file.kind === 'xml' ? await indexXml(file, registry, mappings) : await indexJsonl(file, registry);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { file, counts: new Map(), notDocuments: new Map(), unknownElements: new Map(), error: message };
  }
}
