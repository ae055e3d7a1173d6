import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LoadAbortedError,
  loadFiles,
  type FailedRecord,
  type LoadTarget,
  type PostResult,
} from '../../src/load/index.js';
import type { JsonObject } from '../../src/model/validation/index.js';
import { temporaryFolder } from './support/convert-files.js';

const UNRESOLVED = JSON.stringify({ type: 'urn:ed-fi:api:data-conflict:unresolved-reference', status: 409 });

/** Answers by the document's `code`: `ok` 201, `bad` 400, `late` 409 until `parent` has been created, `fatal` rejects. */
function scriptedTarget(): LoadTarget & { sent: string[] } {
  const sent: string[] = [];
  let parentCreated = false;
  return {
    description: 'scripted',
    sent,
    post(_resource, document: JsonObject): Promise<PostResult> {
      const code = String(document.code);
      sent.push(code);
      if (code === 'fatal') return Promise.reject(new LoadAbortedError('credentials refused'));
      if (code === 'bad') return Promise.resolve({ status: 400, body: '{"detail":"bad"}' });
      if (code === 'late' || code === 'orphan') {
        return Promise.resolve(
          parentCreated && code === 'late' ? { status: 201, body: '' } : { status: 409, body: UNRESOLVED },
        );
      }
      if (code === 'parent') parentCreated = true;
      return Promise.resolve({ status: 201, body: '' });
    },
    close: () => Promise.resolve(),
  };
}

function jsonl(...codes: string[]): string {
  return codes.map((code) => (code === 'not json' ? code : JSON.stringify({ codeValue: code, code }))).join('\n');
}

describe('load outcomes', () => {
  it('retries unresolved references after the rest of the group, and reports what still fails', async () => {
    const folder = temporaryFolder({
      'gradeLevelDescriptors.jsonl': jsonl('late', 'ok', 'orphan', 'bad', 'parent', 'not json'),
    });
    const file = path.join(folder, 'gradeLevelDescriptors.jsonl');
    const target = scriptedTarget();
    const failedFile = path.join(folder, 'failed.jsonl');
    const summary = await loadFiles({ inputs: [file], target, failedFile, parallel: 1 });

    expect(summary.resources).toEqual({ '/ed-fi/gradeLevelDescriptors': { created: 3, updated: 0, failed: 3 } });
    expect(target.sent).toEqual(['late', 'ok', 'orphan', 'bad', 'parent', 'late', 'orphan', 'orphan']);
    const failures = readFileSync(failedFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as FailedRecord);
    expect(failures.map((failure) => [failure.source.line, failure.status])).toEqual([
      [4, 400],
      [6, 0],
      [3, 409],
    ]);
    expect(failures[1]!.error).toEqual({ conversion: [expect.stringMatching(/^not JSON/)] });
    expect(failures[2]!.error).toEqual(JSON.parse(UNRESOLVED));
  });

  it("stops at a failure that is not the document's, keeping the checkpoint to resume from", async () => {
    const folder = temporaryFolder({ 'gradeLevelDescriptors.jsonl': jsonl('ok', 'ok', 'fatal', 'ok', 'ok') });
    const checkpointFile = path.join(folder, 'checkpoint.json');
    const target = scriptedTarget();
    await expect(loadFiles({ inputs: [folder], target, checkpointFile, parallel: 1 })).rejects.toThrow(
      'credentials refused',
    );
    expect(target.sent).toEqual(['ok', 'ok', 'fatal']);
    expect(JSON.parse(readFileSync(checkpointFile, 'utf8'))).toMatchObject({
      units: { [`1:${path.join(folder, 'gradeLevelDescriptors.jsonl')}`]: 2 },
    });
  });
});
