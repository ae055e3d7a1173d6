// Writes one resource's documents to its JSON lines file, streamed: a page is read only when the file has taken the
// previous one (pipeline waits for the stream to drain). An empty resource writes no file.
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { jsonlFileNameOf } from '../load/index.js';
import type { ResourceModel } from '../model/index.js';
import type { StoredDocument } from '../store/store.js';
import { documentPages, type PageReads } from './document-pages.js';
import { compileExportedBody } from './exported-body.js';

export interface ResourceFile {
  readonly resource: ResourceModel;
  /** The file's name within the export folder. */
  readonly file: string;
  readonly documents: number;
}

async function* pageTexts(
  first: readonly StoredDocument[],
  rest: AsyncIterator<readonly StoredDocument[]>,
  bodyOf: (document: StoredDocument) => string,
  counted: (documents: number) => void,
): AsyncGenerator<string> {
  let page: readonly StoredDocument[] | undefined = first;
  while (page !== undefined) {
    counted(page.length);
    yield page.map((document) => `${bodyOf(document)}\n`).join('');
    const next: IteratorResult<readonly StoredDocument[]> = await rest.next();
    page = next.done === true ? undefined : next.value;
  }
}

/** Exports the resource into `folder`; undefined when it holds no documents. */
export async function writeResourceFile(
  reads: PageReads,
  resource: ResourceModel,
  folder: string,
): Promise<ResourceFile | undefined> {
  const pages = documentPages(reads, resource);
  const first = await pages.next();
  if (first.done === true) return undefined;
  const file = jsonlFileNameOf(resource);
  let documents = 0;
  const texts = pageTexts(first.value, pages, compileExportedBody(resource), (count) => (documents += count));
  await pipeline(texts, createWriteStream(path.join(folder, file)));
  return { resource, file, documents };
}
