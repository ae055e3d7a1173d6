// The failed-records file: one JSON line per document that did not load, with where it came from, the document sent,
// the status (0: never answered or not sent) and the error (the API's problem details, or the conversion problems).
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { JsonObject, JsonValue } from '../../model/validation/index.js';

export interface FailedRecord {
  /** `/ed-fi/students`; absent for a file that could not be read at all. */
  readonly resource?: string;
  readonly source: { readonly file: string; readonly line?: number };
  readonly document?: JsonObject;
  readonly status: number;
  readonly error: JsonValue;
}

/** The error member: the response body as JSON when it is JSON, else its text. */
export function errorOfResponse(body: string): JsonValue {
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return body;
  }
}

export class FailedRecordsFile {
  readonly #stream: WriteStream | undefined;
  #count = 0;
  #error: Error | undefined;

  /** Without a path, failures are only counted. `append` keeps the failures of the run being resumed. */
  constructor(path: string | undefined, append: boolean) {
    this.#stream = path === undefined ? undefined : createWriteStream(path, { flags: append ? 'a' : 'w' });
    this.#stream?.on('error', (error) => {
      this.#error = error;
    });
  }

  get count(): number {
    return this.#count;
  }

  async write(record: FailedRecord): Promise<void> {
    if (this.#error) throw this.#error;
    this.#count++;
    if (this.#stream && !this.#stream.write(`${JSON.stringify(record)}\n`)) await once(this.#stream, 'drain');
  }

  async close(): Promise<void> {
    if (!this.#stream || this.#error) return;
    this.#stream.end();
    await once(this.#stream, 'finish');
  }
}
