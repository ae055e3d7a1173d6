// Streams an interchange XML file (never whole in memory) and yields its top-level elements in order, converting to
// API JSON only the ones the caller selects.
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { DocumentBuilder, type BuiltDocument } from './document-builder.js';
import type { DocumentElementMapping, InterchangeMappings } from './interchange-mapping.js';

export interface InterchangeElement {
  /** Local name of the top-level element (`Student`). */
  readonly name: string;
  /** 1-based line of its start tag. */
  readonly line: number;
  readonly xmlId?: string;
  /** The document mapping, when the element is an API document. */
  readonly mapping?: DocumentElementMapping;
  /** Present when the element was selected for conversion. */
  readonly built?: BuiltDocument;
}

/** Decides, from a top-level element's name and XML id, whether to convert it. */
export type ElementSelector = (name: string, xmlId: string | undefined) => boolean;

const READ_CHUNK_BYTES = 256 * 1024;

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1);
}

export async function* readInterchange(
  file: string,
  mappings: InterchangeMappings,
  select: ElementSelector,
): AsyncGenerator<InterchangeElement> {
  const parser = new SaxesParser({ xmlns: false, position: true, fileName: file });
  const ready: InterchangeElement[] = [];
  let depth = 0;
  let current: { name: string; line: number; xmlId?: string; mapping?: DocumentElementMapping } | undefined;
  let builder: DocumentBuilder | undefined;

  parser.on('opentag', (tag) => {
    depth++;
    const name = localName(tag.name);
    const attributes = tag.attributes as Record<string, string>;
    if (depth === 2) {
      const mapping = mappings.documents[name];
      current = { name, line: parser.line, xmlId: attributes.id, mapping };
      builder = mapping && select(name, attributes.id) ? new DocumentBuilder(name, mapping) : undefined;
    } else if (depth > 2) {
      builder?.open(name, attributes);
    }
  });
  parser.on('text', (text) => {
    if (depth > 2) builder?.text(text);
  });
  parser.on('cdata', (text) => {
    if (depth > 2) builder?.text(text);
  });
  parser.on('closetag', () => {
    if (depth > 2) builder?.close();
    else if (depth === 2 && current) {
      ready.push({ ...current, built: builder?.build() });
      current = undefined;
      builder = undefined;
    }
    depth--;
  });

  let first = true;
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: READ_CHUNK_BYTES })) {
    let text = chunk as string;
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    parser.write(text);
    yield* ready.splice(0);
  }
  parser.close();
  yield* ready.splice(0);
}
