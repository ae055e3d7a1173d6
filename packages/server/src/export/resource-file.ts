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

/** The pages again, the first one (already read to see whether there is any) included. */
async function* startingWith<T>(first: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield first;
  yield* rest;
}

async function* pageTexts(
  pages: AsyncIterable<readonly StoredDocument[]>,
  bodyOf: (document: StoredDocument) => string,
  counted: (documents: number) => void,
): AsyncGenerator<string> {
  for await (const page of pages) {
    counted(page.length);
    yield page.map((document) => `${bodyOf(document)}\n`).join('');
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
  const texts = pageTexts(
    startingWith(first.value, pages),
    compileExportedBody(resource),
    (count) => (documents += count),
  );
  await pipeline(texts, createWriteStream(path.join(folder, file)));
  return { resource, file, documents };
}
