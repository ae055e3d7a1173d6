// Streams a JSON lines file: one document per non-blank line, with its line number. Server-assigned members of
// exported documents (`id`, `_etag`, `_lastModifiedDate`) are dropped so the documents can be POSTed again.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { JsonObject } from '../../model/validation/index.js';

export interface JsonlLine {
  readonly line: number;
  readonly document?: JsonObject;
  /** Why the line is not a document (bad JSON, not an object). */
  readonly problem?: string;
}

const SERVER_MEMBERS = ['id', '_etag', '_lastModifiedDate'];

function documentOf(text: string): Omit<JsonlLine, 'line'> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'not a JSON object' };
  const document = value as JsonObject;
  for (const member of SERVER_MEMBERS) delete document[member];
  return { document };
}

export async function* readJsonLines(file: string): AsyncGenerator<JsonlLine> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() !== '') yield { line, ...documentOf(text) };
  }
}

/** Documents in the file (non-blank lines), counted without parsing. */
export async function countJsonLines(file: string): Promise<number> {
  let count = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const text of lines) if (text.trim() !== '') count++;
  return count;
}
