// The loader streams its inputs: however large a file, it reads only a bounded stretch ahead of the document it is
// sending, and holds no more documents than requests in flight. Shown on generated files of tens of megabytes through
// the read position of the loader's own file descriptor (Linux /proc), sampled as each document arrives at the target.
import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFiles, type LoadTarget, type PostResult } from '../../src/load/index.js';
import type { JsonObject } from '../../src/model/validation/index.js';
import { interchangeXml, temporaryFolder } from './support/convert-files.js';

const DOCUMENTS = 24_000;
const PARALLEL = 8;
/** Far below the files' size (about 24 MB): a reader's buffers, not the file. */
const READ_AHEAD_BOUND = 4 * 1024 * 1024;

const uniqueIdOf = (index: number): string => `S${String(index).padStart(6, '0')}`;
const FILLER = 'x'.repeat(900);
/** Every how many documents the read position is looked up (a look-up scans the process's descriptors). */
const SAMPLE_EVERY = 40;

interface GeneratedInput {
  readonly file: string;
  /** Byte offset of document `index` in the file: every document has the same length. */
  readonly offsetOf: (index: number) => number;
}

function generate(name: string, header: string, documentText: (index: number) => string, footer: string) {
  const folder = realpathSync(temporaryFolder({}));
  const file = path.join(folder, name);
  const texts = Array.from({ length: DOCUMENTS }, (_, index) => documentText(index));
  expect(new Set(texts.map((text) => text.length)).size).toBe(1);
  writeFileSync(file, `${header}${texts.join('')}${footer}`);
  const length = texts[0]!.length;
  return { file, offsetOf: (index: number) => header.length + index * length };
}

function jsonLinesInput(): GeneratedInput {
  const line = (index: number) =>
    `${JSON.stringify({ studentUniqueId: uniqueIdOf(index), firstName: FILLER, lastSurname: 'Streamed', birthDate: '2014-11-13' })}\n`;
  return generate('students.jsonl', '', line, '');
}

function interchangeInput(): GeneratedInput {
  const [header, footer] = interchangeXml('InterchangeStudent', '\u0000').split('\u0000') as [string, string];
  const element = (index: number) =>
    `<Student><StudentUniqueId>${uniqueIdOf(index)}</StudentUniqueId><Name><FirstName>${FILLER}</FirstName>` +
    '<LastSurname>Streamed</LastSurname></Name><BirthData><BirthDate>2014-11-13</BirthDate></BirthData></Student>\n';
  return generate('students.xml', header, element, footer);
}

/** The read position of this process's open descriptor on `file`; its end once the reader has closed it. */
function readPositionOf(file: string): number {
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== file) continue;
    const position = /^pos:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    if (position) return Number(position[1]);
  }
  return statSync(file).size;
}

/** Accepts every document, checking as it arrives how far ahead of it the loader has read and how many it holds. */
function watchingTarget(input: GeneratedInput) {
  const watched = { sent: 0, samples: 0, inFlight: 0, mostInFlight: 0, furthestAhead: 0, behind: 0 };
  const target: LoadTarget = {
    description: 'watching',
    async post(_resource, document: JsonObject): Promise<PostResult> {
      const index = Number(String(document.studentUniqueId).slice(1));
      if (watched.sent++ % SAMPLE_EVERY === 0) {
        const ahead = readPositionOf(input.file) - input.offsetOf(index);
        watched.furthestAhead = Math.max(watched.furthestAhead, ahead);
        watched.samples++;
        // The position is the reader's: it must have read past the document it handed over.
        if (ahead <= 0) watched.behind++;
      }
      watched.inFlight++;
      watched.mostInFlight = Math.max(watched.mostInFlight, watched.inFlight);
      // Answer on a later turn, as a real target does, so requests overlap.
      await new Promise((resolve) => setImmediate(resolve));
      watched.inFlight--;
      return { status: 201, body: '' };
    },
    close: () => Promise.resolve(),
  };
  return { target, watched };
}

describe.each([
  ['JSON lines', jsonLinesInput],
  ['interchange XML', interchangeInput],
])('loading a large %s file', (_kind, generateInput) => {
  it('reads a bounded stretch ahead of the document being sent and holds no more than the requests in flight', async () => {
    const input = generateInput();
    const { target, watched } = watchingTarget(input);

    const summary = await loadFiles({ inputs: [input.file], target, parallel: PARALLEL });

    expect(summary.created).toBe(DOCUMENTS);
    expect(summary.failed).toBe(0);
    expect(watched.sent).toBe(DOCUMENTS);
    expect(watched.samples).toBe(DOCUMENTS / SAMPLE_EVERY);
    expect(watched.behind).toBe(0);
    expect(input.offsetOf(DOCUMENTS)).toBeGreaterThan(5 * READ_AHEAD_BOUND);
    expect(watched.furthestAhead).toBeLessThan(READ_AHEAD_BOUND);
    expect(watched.mostInFlight).toBeLessThanOrEqual(PARALLEL);
  }, 120_000);
});
